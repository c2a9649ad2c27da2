#include "dispatch/store/schemamigrator.h"

#include "dispatch/store/sqldialect.h"
#include "dispatch/store/sqlstatementsplitter.h"
#include "dispatch/store/writetransaction.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

namespace {

StoreError sqlFailure(const QString &what, const QSqlError &error)
{
    return StoreError::make(StoreError::Kind::Io, QStringLiteral("%1: %2").arg(what, error.text()));
}

} // namespace

SchemaMigrator::SchemaMigrator(const QSqlDatabase &db) : m_db(db) {}

QList<SchemaMigrator::Migration> SchemaMigrator::bundledMigrations(const SqlDialect &dialect)
{
    const auto read = [](const QString &folder) {
        QList<Migration> list;
        const QDir dir(folder);
        const QStringList names = dir.entryList({QStringLiteral("*.sql")}, QDir::Files, QDir::Name);
        for (const QString &name : names) {
            QFile file(dir.filePath(name));
            if (!file.open(QIODevice::ReadOnly))
                continue;
            list.append({name.section(u'_', 0, 0).toInt(), name, QString::fromUtf8(file.readAll())});
        }
        return list;
    };
    static const QList<Migration> sqlite = read(SqlDialect::sqlite().migrations);
    static const QList<Migration> postgresql = read(SqlDialect::postgresql().migrations);
    return &dialect == &SqlDialect::postgresql() ? postgresql : sqlite;
}

int SchemaMigrator::latestVersion(const SqlDialect &dialect)
{
    const QList<Migration> all = bundledMigrations(dialect);
    return all.isEmpty() ? 0 : all.last().number;
}

int SchemaMigrator::currentVersion() const
{
    // Asked only where the bookkeeping exists: a failed statement would end a PostgreSQL
    // transaction.
    const SqlDialect &dialect = SqlDialect::of(m_db);
    if (&dialect == &SqlDialect::postgresql() && !hasTable(QStringLiteral("schema_migrations")))
        return 0;
    QSqlQuery query(m_db);
    if (query.exec(SqlDialect::of(m_db).schemaVersion) && query.next())
        return query.value(0).toInt();
    return 0;
}

QList<SchemaMigrator::Migration> SchemaMigrator::pending() const
{
    const int version = currentVersion();
    QList<Migration> list;
    for (const Migration &migration : bundledMigrations(SqlDialect::of(m_db))) {
        if (migration.number > version)
            list.append(migration);
    }
    return list;
}

StoreError SchemaMigrator::migrate()
{
    if (pending().isEmpty())
        return StoreError::none();
    WriteTransaction transaction(m_db);
    if (transaction.startError().isError())
        return transaction.startError();
    // Read again under the lock: another process may have migrated in between.
    const QList<Migration> todo = pending();
    if (todo.isEmpty())
        return StoreError::none();
    for (const Migration &migration : todo) {
        StoreError error = apply(migration);
        if (error.isError())
            return error;
    }
    QSqlQuery version(m_db);
    if (!version.exec(SqlDialect::of(m_db).setSchemaVersion.arg(todo.last().number)))
        return sqlFailure(QStringLiteral("cannot record the schema version"), version.lastError());
    return transaction.commit();
}

StoreError SchemaMigrator::apply(const Migration &migration)
{
    static const QRegularExpression addColumn(
        QStringLiteral(R"(^ALTER\s+TABLE\s+(\w+)\s+ADD\s+(?:COLUMN\s+)?(\w+))"),
        QRegularExpression::CaseInsensitiveOption);

    const StoreResult<QList<SqlStatement>> statements = SqlStatementSplitter::split(migration.sql);
    if (!statements.ok())
        return StoreError::make(StoreError::Kind::Io,
                                migration.name + QStringLiteral(": ") + statements.error().message);
    for (const SqlStatement &statement : statements.value()) {
        const QRegularExpressionMatch match = addColumn.match(statement.text);
        if (match.hasMatch() && columnExists(match.captured(1), match.captured(2)))
            continue;
        QSqlQuery query(m_db);
        if (!query.exec(statement.text))
            return sqlFailure(
                QStringLiteral("migration %1 (line %2)").arg(migration.name).arg(statement.line),
                query.lastError());
    }
    return StoreError::none();
}

bool SchemaMigrator::columnExists(const QString &table, const QString &column) const
{
    QSqlQuery query(m_db);
    query.exec(SqlDialect::of(m_db).columnNames.arg(table));
    while (query.next()) {
        if (query.value(0).toString().compare(column, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

bool SchemaMigrator::hasTable(const QString &table) const
{
    QSqlQuery query(m_db);
    query.exec(SqlDialect::of(m_db).tableNames);
    while (query.next()) {
        if (query.value(0).toString() == table)
            return true;
    }
    return false;
}
