#pragma once

#include "serverreply.h"
#include "storeerror.h"

#include <QUrlQuery>

#include <memory>

class DirectoryStore;

// The /api/directory routes of SPEC §10 over one store. Callers have already checked the
// owner key for writes; every write is recorded in the event log as "owner:terminal-key".
// `ifMatch` (an If-Match header's updated_at, or empty) turns a change since that read
// into 412 instead of an overwrite.
// Beyond SPEC §10, a listing pages when asked: `?limit=N` with `offset=M` or `after=KEY`,
// and `fields=summary` (key, type, category, target, updated_at, enabled, sensitive),
// answers `{"rows":[…],"total":T}` in key order; T counts every row the filters match.
// A SPEC-only client sends none of these and gets the plain listing.
class DirectoryApi final
{
public:
    explicit DirectoryApi(std::shared_ptr<DirectoryStore> store);

    ServerReply list(const QUrlQuery &query) const;
    ServerReply get(const QString &key) const;
    ServerReply create(const QByteArray &body);
    ServerReply replace(const QString &key, const QByteArray &body, const QString &ifMatch);
    ServerReply patch(const QString &key, const QByteArray &body, const QString &ifMatch);
    ServerReply remove(const QString &key, const QString &ifMatch);

    // One status per StoreError kind, so the CLI's exit codes and these agree.
    static ServerReply refusal(const StoreError &error);

private:
    struct Paging;

    QString currentUpdatedAt(const QString &key) const;
    ServerReply summaryPage(const Paging &paging) const;

    std::shared_ptr<DirectoryStore> m_store;
};
