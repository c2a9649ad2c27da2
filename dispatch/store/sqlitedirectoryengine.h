#pragma once

#include "dispatch/store/directoryengine.h"
#include "dispatch/store/sqlitechangefeed.h"

struct sqlite3_stmt;

// The embedded directory: one SQLite file through QtSql, in WAL mode with
// synchronous=FULL. A file that is not a directory, is newer than this build, or is
// corrupt is refused and left exactly as it was.
class SqliteDirectoryEngine final : public DirectoryEngine
{
public:
    explicit SqliteDirectoryEngine(QString path);

    QString location() const override { return m_path; }
    StoreError openConnection(const QString &name, bool readOnly) const override;
    bool keepsReadConnections() const override { return false; }
    StoreError checkBeforeOpening() const override;
    StoreError prepare(QSqlDatabase &db) const override;
    StoreError scanSummaries(QSqlDatabase &db, const std::function<void(const RowSummaryView &)> &sink,
                             int firstByKey) const override;
    StoreError scanRows(QSqlDatabase &db, bool byKey,
                        const std::function<bool(Row &&row)> &each) const override;
    StoreResult<DirectoryChanges> changesSince(const QByteArray &cursor) const override;
    int changePollIntervalMs() const override { return 1000; }

private:
    // Prepares `sql` on `connection`'s SQLite handle and hands the statement to `read`,
    // which returns SQLITE_OK when it read what it wanted or the step's error code.
    StoreError step(QSqlDatabase &connection, const QByteArray &sql,
                    const std::function<int(sqlite3_stmt *statement)> &read) const;

    QString m_path;
    SqliteChangeFeed m_feed;
};
