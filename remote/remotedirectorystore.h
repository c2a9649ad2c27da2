#pragma once

#include "dispatch/store/directorystore.h"
#include "remote/serverresponse.h"

#include <QMutex>

#include <atomic>
#include <memory>
#include <optional>

class ServerConnection;
struct RemoteChangeCursor;

// A capability directory on a server speaking SPEC §10, behind the same interface as the
// local file. Every call is a blocking round trip on the calling thread (safe from any
// thread; see ServerConnection).
//  - Reads: GET /api/directory[/:key]. Summaries page in when the server supports
//    `?limit=&after=&fields=summary` (answers carry "total"); a server that ignores those
//    parameters answers with every row, which is used as is.
//  - replace() and remove() carry If-Match (412 is a Conflict). A server that has shown
//    it honours If-Match (its row reads carry an ETag) gets the write alone when the row
//    was read here at the expected updated_at; otherwise the row is re-read first, and an
//    updated_at other than the expected one is a Conflict whose details hold the
//    server's row (a server without If-Match is covered that way).
//    replace() sends a PATCH of only the allow-listed fields that differ, and refuses a
//    change of `runner` or `sensitive`, which SPEC §10 does not let a client make.
//  - importRows() and apply() cannot be atomic over REST: they write in order and stop at
//    the first failure, whose message names what was written and what was not.
//  - changesSince(): against `capdeskctl serve`, `GET /api/directory?since_seq=N&
//    fields=summary` (a delta, or complete when the server says so); against a plain
//    SPEC §10 server, which has only full listings, the listing re-read (with
//    If-None-Match when the server gave an ETag) and answered complete, or unchanged on
//    a 304 or when its bytes are those of the last listing.
//    Which one the server is comes from its first answer (ours carries "seq") and is
//    remembered; the baseline is one `GET /api/directory?fields=summary&limit=1`, which
//    a plain server answers with its whole listing.
class RemoteDirectoryStore final : public DirectoryStore
{
public:
    explicit RemoteDirectoryStore(std::shared_ptr<ServerConnection> connection);
    ~RemoteDirectoryStore() override;
    Q_DISABLE_COPY_MOVE(RemoteDirectoryStore)

    const std::shared_ptr<ServerConnection> &connection() const { return m_connection; }
    // Rows per page of a full summary scan.
    static constexpr int kPageRows = 25000;

    QString location() const override;

    StoreError scanSummaryViews(const std::function<void(const RowSummaryView &)> &sink,
                                int firstByKey = 0) const override;
    StoreResult<Row> row(const QString &key) const override;
    StoreResult<QList<Row>> allRows() const override;
    StoreResult<QList<Row>> rows(const QStringList &keys) const override;
    StoreResult<QStringList> keysWithContent(const QString &needle) const override;
    StoreResult<QList<AuthUsage>> authUsage() const override;

    StoreResult<WriteOutcome> create(Row row) override;
    StoreResult<WriteOutcome> replace(Row row, const QString &expectedUpdatedAt = QString()) override;
    StoreResult<WriteOutcome> put(Row row) override;
    StoreResult<WriteOutcome> patch(const QString &key, const QJsonObject &fields,
                                    const QString &expectedUpdatedAt = QString()) override;
    StoreError remove(const QString &key, const QString &expectedUpdatedAt = QString()) override;
    StoreError importRows(const QList<Row> &rows) override;
    StoreError apply(const ChangeSet &changes) override;
    StoreError applyTracked(const ChangeSet &changes, ApplyTracking &tracking) override;
    bool hasRoundTrips() const override { return true; }

    StoreResult<DirectoryChanges> changesSince(const QByteArray &cursor) const override;
    // The endpoint's interval when it names one; else 5000 for a server answering deltas,
    // 60000 for a plain one, and 5000 until the first changesSince() (the baseline) has
    // told them apart.
    int changePollIntervalMs() const override;

    // The server records its own actor; this value is kept for display only.
    void setActor(const QString &actor) override;
    QString actor() const override;

private:
    StoreError failure(const ServerResponse &response) const;
    StoreError missing(const QString &key) const;
    static StoreError invalidKey(const Row &row);
    StoreResult<QList<Row>> listRows(const QString &query) const;
    // The row as the server holds it now, refusing when it is not `expectedUpdatedAt`.
    StoreResult<Row> currentFor(const QString &key, const QString &expectedUpdatedAt) const;
    // The row as this store last read or wrote it, when that was at `updatedAt` and the
    // server checks If-Match itself: the base of a write that needs no re-read.
    std::optional<Row> knownAt(const QString &key, const QString &updatedAt) const;
    void remember(const Row &row) const;
    void forget(const QString &key) const;
    StoreError conflictAfter412(const QString &key) const;
    StoreResult<WriteOutcome> writeAnswer(const ServerResponse &response, const QString &key,
                                          bool created) const;
    StoreResult<WriteOutcome> applyOne(const RowChange &change);
    void forgetCachedRows() const;

    enum class FeedKind { Unknown, Sequence, Listing };
    StoreResult<DirectoryChanges> baseline() const;
    StoreResult<DirectoryChanges> sequenceChanges(qint64 since) const;
    StoreResult<DirectoryChanges> listingChanges(const RemoteChangeCursor &since) const;
    // Every row, for a cursor this store cannot read.
    StoreResult<DirectoryChanges> everything() const;
    StoreResult<DirectoryChanges> completeListing(const ServerResponse &response) const;

    std::shared_ptr<ServerConnection> m_connection;
    QString m_actor = QStringLiteral("owner:terminal-key");
    // A server that ignored paging sent every row for the first page; the full scan that
    // follows it reuses them instead of downloading them again. Dropped by any write.
    mutable QMutex m_cacheMutex;
    mutable std::optional<QByteArray> m_unpagedBody;
    // Bounded: dropped wholesale when full (a re-read is only a round trip).
    mutable QHash<QString, Row> m_known;
    mutable bool m_serverChecksIfMatch = false;
    mutable std::atomic<FeedKind> m_feedKind = FeedKind::Unknown;
};
