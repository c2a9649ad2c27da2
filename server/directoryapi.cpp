#include "directoryapi.h"

#include "directorystore.h"

#include <QJsonArray>

namespace {

QJsonObject written(const WriteOutcome &outcome)
{
    return {{QStringLiteral("ok"), true},
            {QStringLiteral("key"), outcome.key},
            {QStringLiteral("updated_at"), outcome.updatedAt}};
}

bool matchesQuery(const Row &row, const QString &needle)
{
    for (const QString *field : {&row.key, &row.target, &row.content, &row.category}) {
        if (field->contains(needle, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

ServerReply conflict(const QString &key, const QString &current)
{
    return ServerReply::json(
        412, {{QStringLiteral("error"), QStringLiteral("conflict")},
              {QStringLiteral("message"), QStringLiteral("%1 changed since it was read").arg(key)},
              {QStringLiteral("updated_at"), current}});
}

} // namespace

DirectoryApi::DirectoryApi(std::shared_ptr<DirectoryStore> store) : m_store(std::move(store))
{
    m_store->setActor(QStringLiteral("owner:terminal-key"));
}

ServerReply DirectoryApi::refusal(const StoreError &error)
{
    switch (error.kind) {
    case StoreError::Kind::NotFound:
        return ServerReply::error(404, error.message);
    case StoreError::Kind::AlreadyExists:
        return ServerReply::error(409, error.message);
    case StoreError::Kind::Conflict:
        return ServerReply::json(412, {{QStringLiteral("error"), QStringLiteral("conflict")},
                                       {QStringLiteral("message"), error.message}});
    case StoreError::Kind::Invalid:
        if (error.message == QLatin1String("no recognized fields"))
            return ServerReply::error(400, error.message);
        // The hygiene gate's refusals carry their findings; other rule breaks (a type
        // outside the CHECK list, a malformed value) only a message.
        if (!error.details.isEmpty())
            return ServerReply::json(422, {{QStringLiteral("error"), QStringLiteral("hygiene")},
                                           {QStringLiteral("findings"), error.details},
                                           {QStringLiteral("message"), error.message}});
        return ServerReply::error(422, error.message);
    case StoreError::Kind::None:
    case StoreError::Kind::NotDirectory:
    case StoreError::Kind::TooNew:
    case StoreError::Kind::Io:
        break;
    }
    return ServerReply::error(500, error.message);
}

ServerReply DirectoryApi::list(const QUrlQuery &query) const
{
    const StoreResult<QList<Row>> rows = m_store->allRows();
    if (!rows.ok())
        return refusal(rows.error());
    const QString category = query.queryItemValue(QStringLiteral("category"), QUrl::FullyDecoded);
    const QString needle = query.queryItemValue(QStringLiteral("q"), QUrl::FullyDecoded);
    QJsonArray out;
    for (const Row &row : rows.value()) {
        if ((category.isEmpty() || row.category == category)
            && (needle.isEmpty() || matchesQuery(row, needle)))
            out.append(row.toJson());
    }
    return ServerReply::json(200, {{QStringLiteral("rows"), out}});
}

ServerReply DirectoryApi::get(const QString &key) const
{
    const StoreResult<Row> row = m_store->row(key);
    if (!row.ok())
        return refusal(row.error());
    ServerReply reply = ServerReply::json(200, row.value().toJson());
    reply.headers.append({QByteArrayLiteral("ETag"), '"' + row.value().updatedAt.toUtf8() + '"'});
    return reply;
}

ServerReply DirectoryApi::create(const QByteArray &body)
{
    QJsonObject object;
    if (auto bad = ServerReply::readObject(body, &object))
        return *bad;
    if (object.value(QStringLiteral("key")).toString().isEmpty()
        || object.value(QStringLiteral("type")).toString().isEmpty())
        return ServerReply::error(400, QStringLiteral("key and type are required"));
    QString error;
    const std::optional<Row> row = Row::fromJson(object, &error);
    if (!row)
        return ServerReply::error(400, error);
    const StoreResult<WriteOutcome> outcome = m_store->create(*row);
    return outcome.ok() ? ServerReply::json(201, written(outcome.value())) : refusal(outcome.error());
}

ServerReply DirectoryApi::replace(const QString &key, const QByteArray &body, const QString &ifMatch)
{
    QJsonObject object;
    if (auto bad = ServerReply::readObject(body, &object))
        return *bad;
    const QString named = object.value(QStringLiteral("key")).toString();
    if (!named.isEmpty() && named != key)
        return ServerReply::error(
            400, QStringLiteral("the body names key %1 but the path names %2").arg(named, key));
    object.insert(QStringLiteral("key"), key);
    QString error;
    const std::optional<Row> row = Row::fromJson(object, &error);
    if (!row)
        return ServerReply::error(400, error);
    const StoreResult<WriteOutcome> outcome = m_store->replace(*row, ifMatch);
    if (!outcome.ok() && outcome.error().kind == StoreError::Kind::Conflict)
        return conflict(key, currentUpdatedAt(key));
    return outcome.ok() ? ServerReply::json(200, written(outcome.value())) : refusal(outcome.error());
}

ServerReply DirectoryApi::patch(const QString &key, const QByteArray &body, const QString &ifMatch)
{
    QJsonObject fields;
    if (auto bad = ServerReply::readObject(body, &fields))
        return *bad;
    // The store's patch takes no expected updated_at. All REST writes run on the server's
    // one thread, so nothing of this server's can slip between this read and the patch.
    if (!ifMatch.isEmpty()) {
        const StoreResult<Row> current = m_store->row(key);
        if (!current.ok())
            return refusal(current.error());
        if (current.value().updatedAt != ifMatch)
            return conflict(key, current.value().updatedAt);
    }
    const StoreResult<WriteOutcome> outcome = m_store->patch(key, fields);
    return outcome.ok() ? ServerReply::json(200, written(outcome.value())) : refusal(outcome.error());
}

ServerReply DirectoryApi::remove(const QString &key, const QString &ifMatch)
{
    const StoreError error = m_store->remove(key, ifMatch);
    if (error.kind == StoreError::Kind::Conflict)
        return conflict(key, currentUpdatedAt(key));
    if (error.isError())
        return refusal(error);
    return ServerReply::json(
        200, {{QStringLiteral("ok"), true}, {QStringLiteral("key"), key}, {QStringLiteral("deleted"), 1}});
}

QString DirectoryApi::currentUpdatedAt(const QString &key) const
{
    const StoreResult<Row> row = m_store->row(key);
    return row.ok() ? row.value().updatedAt : QString();
}
