#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/store/directorychanges.h"

#include <QMutex>
#include <QString>

#include <optional>

struct sqlite3;

// The change feed of one directory file, behind SqlDirectoryStore::changesSince().
//  - "Nothing changed" costs one PRAGMA data_version on a long-lived read-only
//    connection of the feed's own. The file is in WAL mode, so a file watcher misses
//    commits; data_version is per connection, so every poll, from whichever thread,
//    uses this one connection (serialized by a mutex).
//  - Otherwise the delta comes from the event log: the keys of the DIRECTORY_MUTATE
//    events after the cursor's seq, read in one snapshot with their summaries. The
//    cursor also holds the hash of its event, so a cursor from another file, or from a
//    log that was replaced, is not mistaken for this one.
//  - Row writes that bypass the log (plain SQL) are counted by the triggers of migration
//    0186. The first poll that sees new ones appends a DIRECTORY_OUTSIDE_WRITE event
//    saying how many, so every reader, and a server publishing the log's seq, then sees
//    a point in the log where a delta cannot be told: those polls answer complete. A
//    commit that wrote neither (a receipt) is "unchanged".
//  - A cursor that cannot be read, a file whose triggers are gone, or a delta of more
//    than kMaxDeltaKeys keys is answered with every row (complete).
class SqliteChangeFeed final
{
public:
    static constexpr int kMaxDeltaKeys = 10000;
    static const QString kOutsideWriteKind; // "DIRECTORY_OUTSIDE_WRITE"

    explicit SqliteChangeFeed(QString path);
    ~SqliteChangeFeed();
    Q_DISABLE_COPY_MOVE(SqliteChangeFeed)

    StoreResult<DirectoryChanges> changesSince(const QByteArray &cursor) const;

    // For a server that publishes the event log's seq as its change sequence: the cursor
    // standing at event `seq`; the event seq a cursor stands at (nullopt when it is not
    // one of these cursors); and that event's hash (empty when the cursor does not say).
    static QByteArray cursorAtEvent(qint64 seq);
    static std::optional<qint64> eventSeqOf(const QByteArray &cursor);
    static QByteArray eventHashOf(const QByteArray &cursor);

private:
    struct Cursor;
    struct Head
    {
        qint64 seq = 0;
        QByteArray hash;
    };

    StoreError openConnection() const;
    StoreError failure(const QString &what) const;
    StoreResult<qint64> dataVersion() const;
    StoreResult<Head> head() const;
    // Whether the triggers and their mark row are in place and every write they counted
    // has been reported in the log.
    StoreResult<bool> outsideWritesAccountedFor() const;
    // Appends the DIRECTORY_OUTSIDE_WRITE event for writes not yet reported. Its own
    // short-lived write connection: the feed's connection only reads.
    void recordOutsideWrites() const;
    StoreResult<bool> deltaCanBeTold(const Cursor &since, const Head &now) const;
    StoreResult<QStringList> touchedKeys(qint64 afterSeq) const;
    StoreError readDelta(qint64 afterSeq, const QStringList &keys, DirectoryChanges *changes) const;
    StoreError readEverything(DirectoryChanges *changes) const;

    QString m_path;
    quint64 m_feedId;
    mutable QMutex m_mutex;
    mutable sqlite3 *m_db = nullptr; // opened on the first poll
};
