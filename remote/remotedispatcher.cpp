#include "remote/remotedispatcher.h"

#include "dispatch/call/flowrunrecord.h"
#include "dispatch/call/invocationhandle.h"
#include "remote/serverconnection.h"
#include "remote/servererrors.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QPointer>
#include <QUrl>

// One call in flight. The relay lives on the caller's thread, so answers read on the
// network thread are handed to the handle there; the handle may be gone by then.
struct RemoteDispatcher::Pending
{
    QPointer<InvocationHandle> handle;
    std::shared_ptr<QObject> relay;
    std::weak_ptr<ServerConnection> connection;
    InvocationRequest request;
    QString location;
};

namespace {

using Pending = RemoteDispatcher::Pending;

void onCallerThread(const std::shared_ptr<Pending> &pending, std::function<void()> work)
{
    QMetaObject::invokeMethod(
        pending->relay.get(), [pending, work = std::move(work)] { work(); }, Qt::QueuedConnection);
}

void finish(const std::shared_ptr<Pending> &pending, const InvocationOutcome &outcome)
{
    if (pending->handle)
        pending->handle->finish(outcome);
}

} // namespace

ServerRequest RemoteDispatcher::requestFor(const InvocationRequest &request)
{
    QJsonObject call{{QStringLiteral("key"), request.key}, {QStringLiteral("body"), request.body}};
    if (request.shape)
        call.insert(QStringLiteral("shape"), true);
    // A debugged flow's steps, linked under the flow's receipt by our server and ignored by
    // a plain one, whose receipts then show no parent.
    if (!request.parentInvocationId.isEmpty()) {
        call.insert(QStringLiteral("parent"), request.parentInvocationId);
        call.insert(QStringLiteral("trace"), request.trace);
    }
    ServerRequest sent;
    sent.method = QByteArrayLiteral("POST");
    sent.pathAndQuery = QStringLiteral("/api/dispatch");
    sent.body = QJsonDocument(call).toJson(QJsonDocument::Compact);
    // An MCP client the owner bridges is named to our server, which records the call as
    // that client's; a plain server ignores the header and records its own actor.
    if (request.token.isEmpty() && request.actor.startsWith(QLatin1String("mcp:")))
        sent.headers.append({QByteArrayLiteral("Capdesk-Actor"), request.actor.toUtf8()});
    if (!request.token.isEmpty()) {
        // A server refuses a token beside a wrong key; the key goes along only when the
        // owner is present to satisfy a token's owner gate.
        sent.headers.append(
            {QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + request.token.toUtf8()});
        if (!request.audience.isEmpty())
            sent.headers.append({QByteArrayLiteral("x-capability-audience"), request.audience.toUtf8()});
        if (!request.ownerPresent)
            sent.credentials = ServerRequest::Credentials::None;
    }
    return sent;
}

namespace {

QString outputText(const QJsonValue &result)
{
    if (result.isString())
        return result.toString();
    if (result.isObject())
        return QString::fromUtf8(QJsonDocument(result.toObject()).toJson(QJsonDocument::Compact));
    if (result.isArray())
        return QString::fromUtf8(QJsonDocument(result.toArray()).toJson(QJsonDocument::Compact));
    return result.toVariant().toString();
}

void attachReceipt(InvocationOutcome &outcome, const ServerResponse &confirm, const QString &publicReceipt)
{
    const QJsonObject answer = QJsonDocument::fromJson(confirm.body).object();
    QString error;
    if (answer.value(QStringLiteral("receipt")).isObject()) {
        outcome.receipt = Receipt::fromJson(answer.value(QStringLiteral("receipt")).toObject(), &error);
        if (outcome.receipt && outcome.receipt->invocationId != outcome.invocationId) {
            error = QStringLiteral("it is the receipt of %1, not of %2")
                        .arg(outcome.receipt->invocationId, outcome.invocationId);
            outcome.receipt.reset();
        }
        if (outcome.receipt) {
            outcome.runner = outcome.receipt->runner;
            return;
        }
    }
    const QString where = publicReceipt.isEmpty() ? QStringLiteral("on the server") : publicReceipt;
    outcome.receiptError = error.isEmpty()
                               ? QStringLiteral("the server keeps this receipt (%1)").arg(where)
                               : QStringLiteral("the server's receipt cannot be read: %1").arg(error);
}

} // namespace

RemoteDispatcher::RemoteDispatcher(std::shared_ptr<ServerConnection> connection)
    : m_connection(std::move(connection))
{}

RemoteDispatcher::~RemoteDispatcher() = default;

InvocationOutcome RemoteDispatcher::outcomeOf(const ServerResponse &response,
                                              const InvocationRequest &request, const QString &location)
{
    InvocationOutcome outcome;
    outcome.shape = request.shape;
    outcome.durationMs = response.elapsedMs;
    if (!response.reached()) {
        // After a timeout the server may still have run it; its receipt would say so.
        outcome.refusal = QStringLiteral("server %1 did not answer: %2").arg(location, response.failure);
        if (response.failure.startsWith(QLatin1String("timed out")))
            outcome.refusal += QStringLiteral(" (the call may still have run there)");
        return outcome;
    }
    if (response.bodyTooLarge) {
        outcome.refusal = ServerErrors::fromResponse(response, location).message;
        return outcome;
    }
    const QJsonObject answer = QJsonDocument::fromJson(response.body).object();
    const bool refused =
        response.status != 200 || answer.contains(QStringLiteral("error")) || answer.isEmpty();
    if (refused) {
        outcome.refusalStatus = response.status;
        outcome.refusal = response.status == 401 && request.token.isEmpty()
                              ? QStringLiteral("the server refused the owner key")
                              : ServerErrors::messageOf(response);
        return outcome;
    }
    outcome.ran = true;
    if (answer.value(QStringLiteral("shape")).toBool()) {
        outcome.shape = true;
        outcome.runner = answer.value(QStringLiteral("runner")).toString();
        outcome.result.shapeRequest = answer.value(QStringLiteral("request")).toObject();
        for (const QJsonValue &note : answer.value(QStringLiteral("notes")).toArray())
            outcome.result.notes.append(note.toString());
        return outcome;
    }
    outcome.ran = answer.value(QStringLiteral("ran")).toBool(true);
    outcome.trace = answer.value(QStringLiteral("trace")).toString();
    outcome.result.output = outputText(answer.value(QStringLiteral("result")));
    const QJsonObject proof = answer.value(QStringLiteral("proof")).toObject();
    outcome.invocationId = proof.value(QStringLiteral("invocation_id")).toString();
    return outcome;
}

std::shared_ptr<Pending> RemoteDispatcher::pendingFor(const InvocationRequest &request) const
{
    auto pending = std::make_shared<Pending>();
    pending->handle = new InvocationHandle;
    // While the application tears down its event queues, posting a deferred delete would
    // wait on the very lock the teardown holds.
    pending->relay = std::shared_ptr<QObject>(new QObject, [](QObject *relay) {
        if (QCoreApplication::closingDown())
            delete relay;
        else
            relay->deleteLater();
    });
    pending->connection = m_connection;
    pending->request = request;
    pending->location = m_connection->location();
    return pending;
}

InvocationHandle *RemoteDispatcher::invoke(const InvocationRequest &request)
{
    const std::shared_ptr<Pending> pending = pendingFor(request);
    if (request.draft) {
        InvocationOutcome outcome;
        outcome.refusal =
            QStringLiteral("%1 has unsaved edits; a server runs stored rows only, so save first")
                .arg(request.key);
        onCallerThread(pending, [pending, outcome] { finish(pending, outcome); });
        return pending->handle;
    }
    send(m_connection, requestFor(request), pending);
    return pending->handle;
}

InvocationHandle *RemoteDispatcher::recordFlowRun(const FlowRunRecord &run)
{
    InvocationRequest request;
    request.key = run.key;
    request.body = run.body;
    const std::shared_ptr<Pending> pending = pendingFor(request);
    if (run.draft) {
        InvocationOutcome outcome;
        outcome.refusal =
            QStringLiteral("%1 has unsaved edits; a server records runs of stored flows only").arg(run.key);
        onCallerThread(pending, [pending, outcome] { finish(pending, outcome); });
        return pending->handle;
    }
    ServerRequest sent;
    sent.method = QByteArrayLiteral("POST");
    sent.pathAndQuery = QStringLiteral("/api/flow-runs");
    sent.body = QJsonDocument(run.toJson()).toJson(QJsonDocument::Compact);
    send(m_connection, sent, pending);
    return pending->handle;
}

// A server that reads SPEC §10's body strictly (capdeskctl serve before it knew debugged
// flows) refuses a step's parent: the step is sent again without it, and runs unlinked.
bool RemoteDispatcher::refusedParent(const ServerResponse &response, const InvocationRequest &request)
{
    if (response.status != 400 || request.parentInvocationId.isEmpty())
        return false;
    const QJsonObject answer = QJsonDocument::fromJson(response.body).object();
    const QString field = answer.value(QStringLiteral("field")).toString();
    return field == QLatin1String("parent") || field == QLatin1String("trace")
           || answer.value(QStringLiteral("error")).toString().contains(QLatin1String("'parent'"));
}

void RemoteDispatcher::send(const std::shared_ptr<ServerConnection> &connection, const ServerRequest &sent,
                            const std::shared_ptr<Pending> &pending)
{
    connection->sendAsync(sent, [pending](const ServerResponse &response) {
        onCallerThread(pending, [pending, response] {
            const std::shared_ptr<ServerConnection> connection = pending->connection.lock();
            if (connection && refusedParent(response, pending->request)) {
                pending->request.parentInvocationId.clear();
                pending->request.trace.clear();
                send(connection, requestFor(pending->request), pending);
                return;
            }
            InvocationOutcome outcome = outcomeOf(response, pending->request, pending->location);
            if (!outcome.ran || outcome.shape || outcome.invocationId.isEmpty() || !connection) {
                finish(pending, outcome);
                return;
            }
            const QString publicReceipt = QJsonDocument::fromJson(response.body)
                                              .object()
                                              .value(QStringLiteral("proof"))
                                              .toObject()
                                              .value(QStringLiteral("public_receipt"))
                                              .toString();
            ServerRequest confirm;
            confirm.pathAndQuery = QStringLiteral("/api/dispatch?confirm=")
                                   + QString::fromLatin1(QUrl::toPercentEncoding(outcome.invocationId));
            confirm.credentials = ServerRequest::Credentials::None;
            connection->sendAsync(confirm, [pending, outcome, publicReceipt](const ServerResponse &answer) {
                onCallerThread(pending, [pending, outcome, publicReceipt, answer]() mutable {
                    attachReceipt(outcome, answer, publicReceipt);
                    finish(pending, outcome);
                });
            });
        });
    });
}
