#pragma once

#include "dispatch/core/storeerror.h"
#include "server/serverreply.h"

#include <QUrlQuery>

#include <memory>

class DirectoryStore;

// The /api/directory routes of SPEC §10 over one store. Callers have already checked the
// owner key for writes; every write is recorded in the event log as "owner:terminal-key".
// `ifMatch` (an If-Match header's updated_at, or empty) turns a change since that read
// into 412 instead of an overwrite. Every member of a body is read strictly (RowJsonField:
// the right JSON type, whole numbers in range); the first wrong one is a 400
// `{"error":"field 'X' must be …","field":"X"}` and nothing is written.
// Beyond SPEC §10, a listing pages when asked: `?limit=N` with `offset=M` or `after=KEY`,
// and `fields=summary` (key, type, category, target, updated_at, enabled, sensitive),
// answers `{"rows":[…],"total":T}` in key order; T counts every row the filters match.
// A SPEC-only client sends none of these and gets the plain listing.
// Also beyond SPEC §10, the change feed (the store's changesSince(), which for a
// directory file publishes the event log's seq):
//  - `?since_seq=N[&fields=summary]` answers `{"seq":M,"complete":false,"rows":[…],
//    "removed":[…]}`: the summaries of the rows created or changed after event N and the
//    keys deleted since; with "complete":true `rows` holds every row instead (a write
//    outside the log, or an N this log never reached). M is the seq to ask with next.
//  - The plain listing carries an ETag (seq and hash of the newest event) and answers
//    a matching If-None-Match with 304; a summary page carries "seq", the point it was
//    read at, which is how a client takes its baseline.
class DirectoryApi final
{
public:
    explicit DirectoryApi(std::shared_ptr<DirectoryStore> store);

    ServerReply list(const QUrlQuery &query, const QByteArray &ifNoneMatch = {}) const;
    ServerReply get(const QString &key) const;
    ServerReply create(const QByteArray &body);
    // SPEC §10's PUT: creates an absent row exactly as create() does (201); a replace keeps
    // the stored `sensitive` and `runner` and names them in the answer's "kept".
    ServerReply replace(const QString &key, const QByteArray &body, const QString &ifMatch);
    ServerReply patch(const QString &key, const QByteArray &body, const QString &ifMatch);
    ServerReply remove(const QString &key, const QString &ifMatch);

    // One status per StoreError kind, so the CLI's exit codes and these agree.
    static ServerReply refusal(const StoreError &error);

private:
    struct Paging;
    // Where the directory stands now, from a baseline of its change feed.
    struct Version
    {
        qint64 seq = 0;
        QByteArray etag; // quoted, as the header carries it
    };

    ServerReply createFrom(const QJsonObject &object);
    QString currentUpdatedAt(const QString &key) const;
    ServerReply summaryPage(const Paging &paging) const;
    ServerReply changesSince(const QUrlQuery &query) const;
    // nullopt when the store's cursors do not stand at an event seq.
    StoreResult<std::optional<Version>> version() const;

    std::shared_ptr<DirectoryStore> m_store;
};
