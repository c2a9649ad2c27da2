#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/row/row.h"
#include "dispatch/row/rowsummary.h"
#include "dispatch/store/directorychanges.h"

#include <QSqlDatabase>
#include <QString>

#include <functional>

// A database password for a keychain entry name; empty when there is none.
using DatabasePasswordLookup = std::function<QString(const QString &keychainName)>;

// What one database engine does for SqlDirectoryStore beyond portable SQL: how to
// connect, what to check and set up on opening, the fast bulk read of summaries, and the
// change feed. The store's rows, gate, writes and event log are the same on every engine.
class DirectoryEngine
{
public:
    virtual ~DirectoryEngine() = default;

    // A path or a URL without secrets, for titles and messages.
    virtual QString location() const = 0;

    // Adds and opens QtSql connection `name` on the calling thread (QtSql connections
    // belong to the thread that opens them). `readOnly` where the engine can enforce it.
    virtual StoreError openConnection(const QString &name, bool readOnly) const = 0;
    // Whether a worker thread keeps its read connection between reads: where connecting
    // costs round trips and authentication, not where it is a file open whose page cache
    // would then stay in memory on every thread.
    virtual bool keepsReadConnections() const = 0;
    // Before anything is opened: refuses what cannot be a directory (a folder, another
    // kind of file) without touching it.
    virtual StoreError checkBeforeOpening() const = 0;
    // On the store's first connection: refuses what is not a directory or is too new,
    // migrates, and makes commits durable, reading the setting back.
    virtual StoreError prepare(QSqlDatabase &db) const = 0;

    // Every row's summary, in storage order; with `firstByKey` > 0 only that many, in key
    // order.
    virtual StoreError scanSummaries(QSqlDatabase &db,
                                     const std::function<void(const RowSummaryView &)> &sink,
                                     int firstByKey) const = 0;
    // Every row in full, in key order when `byKey`, else in storage order, until `each`
    // returns false.
    virtual StoreError scanRows(QSqlDatabase &db, bool byKey,
                                const std::function<bool(Row &&row)> &each) const = 0;

    // See DirectoryStore::changesSince() and changePollIntervalMs().
    virtual StoreResult<DirectoryChanges> changesSince(const QByteArray &cursor) const = 0;
    virtual int changePollIntervalMs() const = 0;
};
