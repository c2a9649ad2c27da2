#include "server/dispatchapi.h"

#include "dispatch/call/dispatcher.h"
#include "dispatch/call/invocationhandle.h"
#include "dispatch/contract/contractdocument.h"
#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/directorystore.h"
#include "dispatch/tokens/capabilitygate.h"
#include "dispatch/tokens/capabilitytoken.h"
#include "server/receiptpage.h"

#include <QJsonArray>

DispatchApi::DispatchApi(std::shared_ptr<const DirectoryStore> store, std::shared_ptr<DirectoryLedger> ledger,
                         Dispatcher &dispatcher, QString baseUrl)
    : m_store(std::move(store)), m_ledger(std::move(ledger)), m_dispatcher(dispatcher),
      m_baseUrl(std::move(baseUrl))
{}

ServerReply DispatchApi::query(const QUrlQuery &query) const
{
    if (query.hasQueryItem(QStringLiteral("confirm")))
        return ServerReply::json(200, m_ledger->confirm(query.queryItemValue(QStringLiteral("confirm"))));
    if (query.hasQueryItem(QStringLiteral("key")))
        return contract(query.queryItemValue(QStringLiteral("key"), QUrl::FullyDecoded),
                        query.queryItemValue(QStringLiteral("format")));
    if (query.queryItemValue(QStringLiteral("registry")) == QLatin1String("1"))
        return registry();
    return ServerReply::error(
        400, QStringLiteral("expected ?confirm=INV_ID, ?key=KEY&format=markdown or ?registry=1"));
}

ServerReply DispatchApi::contract(const QString &key, const QString &format) const
{
    const StoreResult<Row> row = m_store->row(key);
    if (!row.ok())
        return ServerReply::error(row.error().kind == StoreError::Kind::NotFound ? 404 : 500,
                                  row.error().message);
    if (format == QLatin1String("markdown")) {
        ServerReply reply;
        reply.contentType = QByteArrayLiteral("text/markdown; charset=utf-8");
        reply.body = ContractDocument::render(row.value()).toUtf8();
        return reply;
    }
    if (!format.isEmpty() && format != QLatin1String("json"))
        return ServerReply::error(400, QStringLiteral("format is markdown or json, not '%1'").arg(format));
    return ServerReply::json(200, {{QStringLiteral("key"), key},
                                   {QStringLiteral("contract"), ContractFingerprint::fieldsOf(row.value())},
                                   {QStringLiteral("fingerprint"), ContractFingerprint::of(row.value())}});
}

ServerReply DispatchApi::registry() const
{
    const StoreResult<QList<Row>> rows = m_store->allRows();
    if (!rows.ok())
        return ServerReply::error(500, rows.error().message);
    QJsonArray objects;
    for (const Row &row : rows.value()) {
        objects.append(QJsonObject{{QStringLiteral("key"), row.key},
                                   {QStringLiteral("contract"), ContractFingerprint::fieldsOf(row)},
                                   {QStringLiteral("fingerprint"), ContractFingerprint::of(row)}});
    }
    return ServerReply::json(
        200, {{QStringLiteral("count"), objects.size()}, {QStringLiteral("objects"), objects}});
}

ServerReply DispatchApi::receiptPage(const QString &invocationId) const
{
    const QJsonObject confirm = m_ledger->confirm(invocationId);
    ServerReply reply;
    reply.status =
        confirm.value(QStringLiteral("status")).toString() == QLatin1String("UNKNOWN_INVOCATION") ? 404 : 200;
    reply.contentType = QByteArrayLiteral("text/html; charset=utf-8");
    reply.headers.append({QByteArrayLiteral("Content-Security-Policy"),
                          QByteArrayLiteral("default-src 'none'; style-src 'unsafe-inline'")});
    reply.body = ReceiptPage::render(confirm);
    return reply;
}

std::optional<ServerReply> DispatchApi::refusalOfToken(const QString &token)
{
    const StoreResult<CapabilityToken> found = m_ledger->tokens().findByValue(token);
    if (!found.ok() && found.error().kind != StoreError::Kind::NotFound)
        return std::nullopt; // the gate, after the body, answers as for any call
    const GateVerdict verdict =
        found.ok() ? CapabilityGate::checkToken(found.value(), QDateTime::currentDateTimeUtc())
                   : CapabilityGate::unknownToken();
    if (verdict.allowed)
        return std::nullopt;
    const QString tokenId = found.ok() ? found.value().id : QString();
    const StoreError logged = m_ledger->recordRefusal(QString(), tokenId, verdict.reason,
                                                      tokenId.isEmpty() ? QStringLiteral("token:unknown")
                                                                        : QStringLiteral("token:") + tokenId);
    InvocationOutcome outcome;
    outcome.refusal = verdict.reason;
    if (logged.isError())
        outcome.refusal += QStringLiteral(" (and the refusal could not be logged: %1)").arg(logged.message);
    outcome.refusalStatus = verdict.httpStatus;
    return finish(outcome);
}

std::variant<ServerReply, InvocationHandle *> DispatchApi::start(const QByteArray &body, const Caller &caller)
{
    QJsonObject object;
    if (auto bad = ServerReply::readObject(body, &object))
        return *bad;
    if (auto bad = badMember(object))
        return *bad;
    InvocationRequest request;
    request.key = object.value(QStringLiteral("key")).toString();
    request.body = object.value(QStringLiteral("body")).toString();
    request.shape = object.value(QStringLiteral("shape")).toBool();
    request.token = caller.token;
    request.audience =
        caller.audience.isEmpty() ? object.value(QStringLiteral("audience")).toString() : caller.audience;
    request.ownerPresent = caller.owner;
    request.inheritedBudget = caller.callBudget;
    if (caller.token.isEmpty())
        request.actor = QStringLiteral("owner:terminal-key");
    return m_dispatcher.invoke(request);
}

std::optional<ServerReply> DispatchApi::badMember(const QJsonObject &object)
{
    const auto refuse = [](const QString &field, const QString &message) {
        return ServerReply::json(400, {{QStringLiteral("error"), message}, {QStringLiteral("field"), field}});
    };
    const QJsonValue key = object.value(QStringLiteral("key"));
    if (key.isUndefined())
        return refuse(QStringLiteral("key"), QStringLiteral("key is required"));
    if (!key.isString() || key.toString().isEmpty())
        return refuse(QStringLiteral("key"), QStringLiteral("field 'key' must be a non-empty string"));
    // A misspelt member would be dropped in silence, and `"shpae": true` would run a real call.
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        const QString &name = it.key();
        if (name == QLatin1String("key"))
            continue;
        if (name == QLatin1String("body") && !it.value().isString())
            return refuse(name, QStringLiteral("field 'body' must be one string; args are split on |"));
        if (name == QLatin1String("shape") && !it.value().isBool())
            return refuse(name, QStringLiteral("field 'shape' must be true or false"));
        if (name == QLatin1String("audience") && !it.value().isString())
            return refuse(name, QStringLiteral("field 'audience' must be a string"));
        if (!QStringList{QStringLiteral("body"), QStringLiteral("shape"), QStringLiteral("audience")}
                 .contains(name))
            return refuse(name,
                          QStringLiteral("unknown field '%1': a dispatch names key, body, shape and audience")
                              .arg(name));
    }
    return std::nullopt;
}

ServerReply DispatchApi::finish(const InvocationOutcome &outcome) const
{
    QJsonObject response = outcome.toResponse();
    if (!outcome.refusal.isEmpty())
        return ServerReply::json(outcome.refusalStatus > 0 ? outcome.refusalStatus : 400, response);
    if (!outcome.shape) {
        // A server's receipts have a public page, so the proof links it instead of carrying
        // the whole signed receipt as local output does.
        QJsonObject proof = response.value(QStringLiteral("proof")).toObject();
        proof.remove(QStringLiteral("receipt"));
        if (outcome.receipt)
            proof.insert(QStringLiteral("public_receipt"),
                         m_baseUrl + QStringLiteral("/receipt/") + outcome.invocationId);
        response.insert(QStringLiteral("proof"), proof);
    }
    return ServerReply::json(200, response);
}
