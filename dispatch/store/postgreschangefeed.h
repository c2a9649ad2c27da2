#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/store/directorychanges.h"

#include <QString>

#include <functional>
#include <optional>

class QSqlDatabase;

// The change feed of a PostgreSQL directory, behind SqlDirectoryStore::changesSince(),
// with SqliteChangeFeed's rules:
//  - the cursor stands at an event of the log (seq and hash), so a cursor from another
//    database, or from a log that was replaced, is not mistaken for this one;
//  - "nothing changed" is the head still at the cursor's event: one query;
//  - otherwise the delta is the rows of the DIRECTORY_MUTATE events after the cursor,
//    read in one REPEATABLE READ snapshot;
//  - writes that bypassed the log (counted by the triggers of migration 0190) are first
//    reported as a DIRECTORY_OUTSIDE_WRITE event, after which polls from before it answer
//    complete, as do an unreadable cursor, disabled or missing triggers, and a delta of
//    more than kMaxDeltaKeys keys.
// Each poll opens a connection of its own on the calling thread (any thread may poll).
class PostgresChangeFeed final
{
public:
    static constexpr int kMaxDeltaKeys = 10000;

    // `openConnection(name)` adds and opens QtSql connection `name` on the calling thread.
    PostgresChangeFeed(QString location, std::function<StoreError(const QString &name)> openConnection);

    StoreResult<DirectoryChanges> changesSince(const QByteArray &cursor) const;

private:
    struct Head
    {
        qint64 seq = 0;
        QByteArray hash;
    };

    StoreResult<DirectoryChanges> poll(QSqlDatabase &db, const QByteArray &cursor) const;
    StoreResult<Head> head(QSqlDatabase &db) const;
    // Both counting triggers in place and enabled, and every write they counted reported.
    StoreResult<bool> outsideWritesAccountedFor(QSqlDatabase &db) const;
    StoreResult<bool> deltaCanBeTold(QSqlDatabase &db, const Head &since, const Head &now) const;
    StoreError readChanges(QSqlDatabase &db, qint64 afterSeq, DirectoryChanges *changes) const;
    StoreError readEverything(QSqlDatabase &db, DirectoryChanges *changes) const;
    StoreError failure(const QString &what, const QSqlDatabase &db) const;

    QString m_location;
    std::function<StoreError(const QString &name)> m_openConnection;
};
