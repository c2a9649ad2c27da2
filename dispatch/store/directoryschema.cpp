#include "dispatch/store/directoryschema.h"

#include "dispatch/store/schemamigrator.h"
#include "dispatch/store/sqldialect.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QStringList>

namespace {

using Kind = StoreError::Kind;

StoreError checkIsDirectory(QSqlDatabase &db, const QString &location, bool *isEmpty)
{
    const SqlDialect &dialect = SqlDialect::of(db);
    QSqlQuery tables(db);
    if (!tables.exec(dialect.tableNames))
        return StoreError::make(Kind::NotDirectory,
                                QStringLiteral("%1 cannot be read as %2 (%3)")
                                    .arg(location, dialect.name, tables.lastError().text()));
    QStringList names;
    while (tables.next())
        names.append(tables.value(0).toString());
    *isEmpty = names.isEmpty();
    if (*isEmpty)
        return StoreError::none();
    if (!names.contains(QStringLiteral("directory")))
        return StoreError::make(
            Kind::NotDirectory,
            QStringLiteral("%1 is not a capability directory: it has no 'directory' table (tables: %2)")
                .arg(location, names.join(QStringLiteral(", "))));
    const QSqlRecord columns = db.record(QStringLiteral("directory"));
    if (!columns.contains(QStringLiteral("key")) || !columns.contains(QStringLiteral("type")))
        return StoreError::make(
            Kind::NotDirectory,
            QStringLiteral("%1: its 'directory' table has no key/type columns").arg(location));
    return StoreError::none();
}

} // namespace

namespace DirectorySchema {

StoreResult<bool> holdsNoTables(QSqlDatabase &db, const QString &location)
{
    bool isEmpty = false;
    const StoreError error = checkIsDirectory(db, location, &isEmpty);
    if (error.isError() && !isEmpty)
        return error;
    return isEmpty;
}

StoreError prepare(QSqlDatabase &db, const QString &location,
                   const std::function<StoreError()> &beforeMigrating)
{
    bool isEmpty = false;
    StoreError error = checkIsDirectory(db, location, &isEmpty);
    if (error.isError())
        return error;

    SchemaMigrator migrator(db);
    const SqlDialect &dialect = SqlDialect::of(db);
    const int latest = SchemaMigrator::latestVersion(dialect);
    if (migrator.currentVersion() > latest)
        return StoreError::make(
            Kind::TooNew,
            QStringLiteral("%1 has schema version %2, newer than this Capdesk understands (%3); "
                           "open it with a newer Capdesk")
                .arg(location)
                .arg(migrator.currentVersion())
                .arg(latest));
    if (!isEmpty && !migrator.pending().isEmpty() && beforeMigrating) {
        error = beforeMigrating();
        if (error.isError())
            return error;
    }
    return migrator.migrate();
}

} // namespace DirectorySchema
