#include "server/dispatchapi.h"

#include "dispatch/call/dispatcher.h"
#include "dispatch/call/flowrunrecord.h"
#include "dispatch/call/invocationhandle.h"
#include "dispatch/call/invocationids.h"
#include "dispatch/contract/contractdocument.h"
#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/core/faultnotice.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/directorystore.h"
#include "dispatch/tokens/capabilitygate.h"
#include "dispatch/tokens/capabilitytoken.h"
#include "server/receiptpage.h"

#include <QDateTime>
#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace {

// How far ahead of this server's clock a client's started_at may be.
constexpr qint64 kClockSkewS = 300;

} // namespace

DispatchApi::DispatchApi(std::shared_ptr<const DirectoryStore> store, std::shared_ptr<DirectoryLedger> ledger,
                         Dispatcher &dispatcher, QString baseUrl)
    : m_store(std::move(store)), m_ledger(std::move(ledger)), m_dispatcher(dispatcher),
      m_baseUrl(std::move(baseUrl))
{}

ServerReply DispatchApi::query(const QUrlQuery &query, bool owner) const
{
    if (query.hasQueryItem(QStringLiteral("confirm")))
        return ServerReply::json(200, confirmation(query.queryItemValue(QStringLiteral("confirm")), owner));
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
    const QJsonObject confirm = confirmation(invocationId, false);
    ServerReply reply;
    reply.status =
        confirm.value(QStringLiteral("status")).toString() == QLatin1String("UNKNOWN_INVOCATION") ? 404 : 200;
    reply.contentType = QByteArrayLiteral("text/html; charset=utf-8");
    reply.headers.append({QByteArrayLiteral("Content-Security-Policy"),
                          QByteArrayLiteral("default-src 'none'; style-src 'unsafe-inline'")});
    reply.body = ReceiptPage::render(confirm);
    return reply;
}

QJsonObject DispatchApi::confirmation(const QString &invocationId, bool owner) const
{
    QJsonObject confirm = m_ledger->confirm(invocationId);
    // An unreadable receipt is the store's fault, whose text names the server's files.
    const QString error = confirm.value(QStringLiteral("error")).toString();
    if (!owner && confirm.value(QStringLiteral("reason")).toString() == QLatin1String("unreadable")
        && !error.isEmpty())
        confirm.insert(QStringLiteral("error"), FaultNotice::hide(error));
    return confirm;
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
        outcome.refusal += QStringLiteral(" (and the refusal could not be logged: %1)")
                               .arg(FaultNotice::hide(logged.message));
    outcome.refusalStatus = verdict.httpStatus;
    return finish(outcome, false);
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
    if (!caller.actor.isEmpty()) {
        if (!caller.owner || !caller.token.isEmpty())
            return ServerReply::json(
                403, {{QStringLiteral("error"), QStringLiteral("only the owner may name the actor")},
                      {QStringLiteral("field"), QStringLiteral("Capdesk-Actor")}});
        static const QRegularExpression kActor(QStringLiteral("^mcp:[A-Za-z0-9._@/-]{1,64}$"));
        if (!kActor.match(caller.actor).hasMatch())
            return ServerReply::json(
                400, {{QStringLiteral("error"),
                       QStringLiteral("Capdesk-Actor must be mcp: and 1 to 64 of A-Z a-z 0-9 . _ @ / -")},
                      {QStringLiteral("field"), QStringLiteral("Capdesk-Actor")}});
        request.actor = caller.actor;
    }
    if (object.contains(QStringLiteral("parent"))) {
        // Linking a call under an invocation is the debugger's, and the owner's alone: a
        // token holder could otherwise hang calls under anyone's flow receipt.
        if (!caller.owner || !caller.token.isEmpty())
            return ServerReply::json(
                403, {{QStringLiteral("error"), QStringLiteral("only the owner may set 'parent'")},
                      {QStringLiteral("field"), QStringLiteral("parent")}});
        request.parentInvocationId = object.value(QStringLiteral("parent")).toString();
        request.trace = object.value(QStringLiteral("trace")).toString();
        request.depth = 1;
        // A receipted flow is closed: nothing joins it afterwards.
        if (m_ledger->receipts().find(request.parentInvocationId).ok())
            return ServerReply::json(
                409, {{QStringLiteral("error"),
                       QStringLiteral("%1 already has a receipt; a step cannot join a finished flow")
                           .arg(request.parentInvocationId)},
                      {QStringLiteral("field"), QStringLiteral("parent")}});
    }
    return m_dispatcher.invoke(request);
}

std::variant<ServerReply, InvocationHandle *> DispatchApi::recordFlowRun(const QByteArray &body)
{
    QJsonObject object;
    if (auto bad = ServerReply::readObject(body, &object))
        return *bad;
    QString error;
    std::optional<FlowRunRecord> run = FlowRunRecord::fromJson(object, &error);
    if (!run)
        return ServerReply::json(400, {{QStringLiteral("error"), error}});
    if (m_ledger->receipts().find(run->invocationId).ok())
        return ServerReply::json(409, {{QStringLiteral("error"),
                                        QStringLiteral("%1 already has a receipt").arg(run->invocationId)}});
    // The engine vouches only for a run it took part in: steps it ran under this id, in this
    // trace, started no later than now.
    ReceiptLog::Query children;
    children.parent = run->invocationId;
    const StoreResult<QList<Receipt>> steps = m_ledger->receipts().list(children);
    if (!steps.ok())
        return ServerReply::error(500, steps.error().message);
    const bool ranHere = std::any_of(steps.value().cbegin(), steps.value().cend(),
                                     [&run](const Receipt &step) { return step.trace == run->trace; });
    if (!ranHere)
        return ServerReply::json(
            422, {{QStringLiteral("error"),
                   QStringLiteral("no step ran here under %1 in trace %2: there is no run to receipt")
                       .arg(run->invocationId, run->trace)}});
    const QDateTime started = QDateTime::fromString(run->startedAt, Qt::ISODateWithMs);
    if (started > QDateTime::currentDateTimeUtc().addSecs(kClockSkewS))
        return ServerReply::json(
            400, {{QStringLiteral("error"), QStringLiteral("field 'started_at' is in the future")},
                  {QStringLiteral("field"), QStringLiteral("started_at")}});
    run->actor = QStringLiteral("owner:terminal-key");
    return m_dispatcher.recordFlowRun(*run);
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
        if (name == QLatin1String("parent") && !InvocationIds::isInvocationId(it.value().toString()))
            return refuse(name,
                          QStringLiteral("field 'parent' must be inv_ and 10 lowercase base-36 characters"));
        if (name == QLatin1String("trace") && !InvocationIds::isTrace(it.value().toString()))
            return refuse(name,
                          QStringLiteral("field 'trace' must be t_ and 8 lowercase base-36 characters"));
        if (!QStringList{QStringLiteral("body"), QStringLiteral("shape"), QStringLiteral("audience"),
                         QStringLiteral("parent"), QStringLiteral("trace")}
                 .contains(name))
            return refuse(name,
                          QStringLiteral("unknown field '%1': a dispatch names key, body, shape, audience "
                                         "and, for a debugged flow's step, parent and trace")
                              .arg(name));
    }
    if (object.contains(QStringLiteral("parent")) != object.contains(QStringLiteral("trace")))
        return refuse(QStringLiteral("trace"),
                      QStringLiteral("a step names its parent and its trace together"));
    if (object.contains(QStringLiteral("parent")) && object.value(QStringLiteral("shape")).toBool())
        return refuse(QStringLiteral("parent"), QStringLiteral("a shape call writes no receipt to link"));
    return std::nullopt;
}

ServerReply DispatchApi::finish(InvocationOutcome outcome, bool owner) const
{
    if (!owner && !outcome.receiptError.isEmpty())
        outcome.receiptError = FaultNotice::hide(outcome.receiptError);
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
