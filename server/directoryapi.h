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
    QString currentUpdatedAt(const QString &key) const;

    std::shared_ptr<DirectoryStore> m_store;
};
