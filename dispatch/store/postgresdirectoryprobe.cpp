#include "dispatch/store/postgresdirectoryprobe.h"

#include "dispatch/store/connectionname.h"
#include "dispatch/store/directoryschema.h"
#include "dispatch/store/postgresdirectoryengine.h"
#include "dispatch/store/postgreslocation.h"

#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

PostgresDirectoryProbe::Result PostgresDirectoryProbe::probe(const QString &url, const QString &password)
{
    const StoreResult<PostgresLocation> location = PostgresLocation::parse(url);
    if (!location.ok())
        return {Found::Refused, location.error().message};
    const QString connection = ConnectionName::fresh(QStringLiteral("pgprobe"));
    QElapsedTimer clock;
    clock.start();
    Result result;
    {
        const PostgresDirectoryEngine engine(location.value(),
                                             [password](const QString &) { return password; });
        const StoreError opened = engine.openConnection(connection, true);
        result = opened.isError() ? Result{Found::Refused, opened.message}
                                  : probeOpen(location.value().display(), connection);
        QSqlDatabase::database(connection, false).close();
    }
    QSqlDatabase::removeDatabase(connection);
    result.elapsedMs = clock.elapsed();
    return result;
}

PostgresDirectoryProbe::Result PostgresDirectoryProbe::probeOpen(const QString &location,
                                                                 const QString &connection)
{
    QSqlDatabase db = QSqlDatabase::database(connection, false);
    const StoreResult<bool> empty = DirectorySchema::holdsNoTables(db, location);
    if (!empty.ok())
        return {Found::Refused, empty.error().message};
    if (empty.value())
        return {Found::EmptyDatabase, tr("The database holds no tables yet: opening it makes it a new, "
                                         "empty directory.")};
    QSqlQuery count(db);
    if (!count.exec(QStringLiteral("SELECT count(*) FROM directory")) || !count.next())
        return {Found::Refused,
                tr("The database holds tables but no Capdesk directory (%1); Capdesk will not open it.")
                    .arg(count.lastError().text().trimmed())};
    const qint64 rows = count.value(0).toLongLong();
    return {Found::Directory,
            rows == 1 ? tr("A Capdesk directory with 1 row.")
                      : tr("A Capdesk directory with %L1 rows.").arg(rows),
            rows};
}
