#include "dispatch/store/sqlitedirectoryengine.h"

#include "dispatch/store/directoryschema.h"
#include "dispatch/store/qtsqlrowscan.h"
#include "dispatch/store/sqliterowscan.h"
#include "dispatch/store/sqlitesummaryscan.h"

#include <QFile>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>

#include <sqlite3.h>

#include <memory>

namespace {

using Kind = StoreError::Kind;

StoreError checkIntegrity(QSqlDatabase &db, const QString &path)
{
    QSqlQuery check(db);
    if (!check.exec(QStringLiteral("PRAGMA quick_check(1)")) || !check.next())
        return StoreError::make(Kind::NotDirectory,
                                QStringLiteral("%1 is corrupt: %2").arg(path, check.lastError().text()));
    const QString verdict = check.value(0).toString();
    if (verdict != QLatin1String("ok"))
        return StoreError::make(Kind::NotDirectory, QStringLiteral("%1 is corrupt: %2").arg(path, verdict));
    return StoreError::none();
}

StoreError switchToWal(QSqlDatabase &db, const QString &path)
{
    QSqlQuery pragma(db);
    if (!pragma.exec(QStringLiteral("PRAGMA journal_mode = WAL")) || !pragma.next()
        || pragma.value(0).toString() != QLatin1String("wal"))
        return StoreError::make(Kind::Io, QStringLiteral("cannot switch %1 to write-ahead logging: %2")
                                              .arg(path, pragma.lastError().text()));
    return StoreError::none();
}

// synchronous is a setting of each connection, not of the file: every connection that
// writes sets it. Group commit answers a caller once its batch is committed, which is a
// promise only while a commit waits for the disk: read back, since SQLite ignores a
// setting it refuses.
StoreError makeDurable(QSqlDatabase &db, const QString &path)
{
    QSqlQuery pragma(db);
    if (!pragma.exec(QStringLiteral("PRAGMA synchronous = FULL")))
        return StoreError::make(
            Kind::Io,
            QStringLiteral("cannot make writes to %1 durable: %2").arg(path, pragma.lastError().text()));
    constexpr int synchronousFull = 2;
    if (!pragma.exec(QStringLiteral("PRAGMA synchronous")) || !pragma.next()
        || pragma.value(0).toInt() != synchronousFull)
        return StoreError::make(
            Kind::Io, QStringLiteral("cannot make writes to %1 durable: synchronous is %2, not FULL")
                          .arg(path, pragma.value(0).toString()));
    return StoreError::none();
}

} // namespace

SqliteDirectoryEngine::SqliteDirectoryEngine(QString path) : m_path(std::move(path)), m_feed(m_path) {}

StoreError SqliteDirectoryEngine::checkBeforeOpening() const
{
    const QFileInfo info(m_path);
    if (info.isDir())
        return StoreError::make(Kind::NotDirectory,
                                QStringLiteral("%1 is a folder, not a directory file").arg(m_path));
    if (!info.exists() || info.size() == 0)
        return StoreError::none();
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return StoreError::make(Kind::Io,
                                QStringLiteral("cannot read %1: %2").arg(m_path, file.errorString()));
    if (file.read(16) != QByteArray("SQLite format 3\0", 16))
        return StoreError::make(
            Kind::NotDirectory,
            QStringLiteral("%1 is not a SQLite database, so not a capability directory").arg(m_path));
    // SQLite would report a read-only file as "attempt to write a readonly database" at
    // the first migration or WAL switch; say what is wrong instead.
    if (!info.isWritable() || !QFileInfo(info.absolutePath()).isWritable())
        return StoreError::make(Kind::Io,
                                QStringLiteral("%1 is read-only (the file or its folder): Capdesk needs to "
                                               "write beside it for its journal, migrations and edits")
                                    .arg(m_path));
    return StoreError::none();
}

StoreError SqliteDirectoryEngine::openConnection(const QString &name, bool readOnly) const
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(m_path);
    db.setConnectOptions(readOnly ? QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000")
                                  : QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open())
        return StoreError::make(Kind::Io,
                                QStringLiteral("cannot open %1: %2").arg(m_path, db.lastError().text()));
    return readOnly ? StoreError::none() : makeDurable(db, m_path);
}

StoreError SqliteDirectoryEngine::prepare(QSqlDatabase &db) const
{
    StoreError error = DirectorySchema::prepare(db, m_path, [&] { return checkIntegrity(db, m_path); });
    if (error.isError())
        return error;
    return switchToWal(db, m_path);
}

StoreError SqliteDirectoryEngine::scanSummaries(QSqlDatabase &connection,
                                                const std::function<void(const RowSummaryView &)> &sink,
                                                int firstByKey) const
{
    QByteArray sql = QByteArray("SELECT ") + SqliteSummaryScan::kColumns + " FROM directory";
    if (firstByKey > 0)
        sql += " ORDER BY key LIMIT " + QByteArray::number(firstByKey);
    return step(connection, sql, [&sink](sqlite3_stmt *statement) {
        const int last = SqliteSummaryScan::read(statement, sink);
        return last == SQLITE_DONE ? SQLITE_OK : last;
    });
}

StoreError SqliteDirectoryEngine::scanRows(QSqlDatabase &connection, bool byKey,
                                           const std::function<bool(Row &&row)> &each) const
{
    const QByteArray sql =
        "SELECT " + QtSqlRowScan::columns().toUtf8() + " FROM directory" + (byKey ? " ORDER BY key" : "");
    return step(connection, sql, [&each](sqlite3_stmt *statement) {
        const int last = SqliteRowScan::read(statement, each);
        return last == SQLITE_DONE || last == SQLITE_ROW ? SQLITE_OK : last;
    });
}

// The bulk reads step a statement on the same QtSql connection directly (see
// SqliteSummaryScan and SqliteRowScan).
StoreError SqliteDirectoryEngine::step(QSqlDatabase &connection, const QByteArray &sql,
                                       const std::function<int(sqlite3_stmt *statement)> &read) const
{
    const QVariant handle = connection.driver()->handle();
    sqlite3 *db = handle.isValid() ? *static_cast<sqlite3 *const *>(handle.constData()) : nullptr;
    if (!db)
        return StoreError::make(Kind::Io, QStringLiteral("%1 is not open").arg(m_path));
    sqlite3_stmt *prepared = nullptr;
    if (sqlite3_prepare_v2(db, sql.constData(), -1, &prepared, nullptr) != SQLITE_OK)
        return StoreError::make(
            Kind::Io,
            QStringLiteral("cannot read %1: %2").arg(m_path, QString::fromUtf8(sqlite3_errmsg(db))));
    const std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> statement(prepared, &sqlite3_finalize);
    const int result = read(statement.get());
    const QString message = QString::fromUtf8(sqlite3_errmsg(db));
    if (result != SQLITE_OK)
        return StoreError::make(Kind::Io, QStringLiteral("cannot read all of %1: %2").arg(m_path, message));
    return StoreError::none();
}

StoreResult<DirectoryChanges> SqliteDirectoryEngine::changesSince(const QByteArray &cursor) const
{
    return m_feed.changesSince(cursor);
}
