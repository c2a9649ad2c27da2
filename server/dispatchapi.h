#pragma once

#include "server/serverreply.h"

#include <QUrlQuery>

#include <memory>
#include <optional>
#include <variant>

class Dispatcher;
class DirectoryLedger;
class DirectoryStore;
class InvocationHandle;
struct InvocationOutcome;

// The /api/dispatch and /receipt routes of SPEC §10. A POST becomes one invocation
// through the same dispatcher, gate and receipts as a local call; the server answers
// when the handle finishes.
class DispatchApi final
{
public:
    // Who is calling, as the server established it from the headers.
    struct Caller
    {
        bool owner = false; // a valid x-terminal-key
        QString token; // the capability token of `Authorization: Bearer …`
        QString audience; // x-capability-audience (the body's "audience" otherwise)
        // Capdesk-Call-Budget: what is left of the call tree of a Capdesk http row that
        // calls here, which the call tree started here may not exceed.
        QByteArray callBudget = {};
        // Capdesk-Actor: who the owner calls for (an MCP client the owner bridges, "mcp:NAME");
        // the owner's alone to name.
        QString actor = {};
    };

    DispatchApi(std::shared_ptr<const DirectoryStore> store, std::shared_ptr<DirectoryLedger> ledger,
                Dispatcher &dispatcher, QString baseUrl);

    // The scheme, host and port receipts' public URLs start with; the server sets it again
    // once it listens, since with `--listen HOST:0` only then is the port known.
    void setBaseUrl(const QString &baseUrl) { m_baseUrl = baseUrl; }

    // GET ?confirm=, ?key=K[&format=markdown|json], ?registry=1.
    // `owner`: the caller presented the owner key, and is told why a receipt is unreadable;
    // anyone else, and the public receipt page, get a fault id (FaultNotice).
    ServerReply query(const QUrlQuery &query, bool owner) const;
    ServerReply receiptPage(const QString &invocationId) const;
    // The refusal of a capability token that the token alone decides (unknown, revoked or
    // expired), recorded as the gate records it, with the status and body the call would
    // get; nothing when the token may go on to the gate. For a request's head: the call
    // itself, in the body, has not been read, so a recorded refusal names no key.
    std::optional<ServerReply> refusalOfToken(const QString &token);
    // The running invocation (owned by the caller), or the reply when nothing started.
    // An owner's call may name `parent` and `trace`: a step of a flow the owner debugs
    // step by step, receipted under that flow's invocation.
    std::variant<ServerReply, InvocationHandle *> start(const QByteArray &body, const Caller &caller);
    // POST /api/flow-runs (the owner's only): the receipt of a flow debugged step by step,
    // once; its invocation id may not have a receipt yet.
    std::variant<ServerReply, InvocationHandle *> recordFlowRun(const QByteArray &body);
    // The response object, with the proof pointing at this server's public receipt page. A
    // caller who is not the owner gets a receipt that could not be written as a fault
    // (FaultNotice), not its reason.
    ServerReply finish(InvocationOutcome outcome, bool owner) const;

private:
    // The ledger's confirm() of `invocationId`, its store fault hidden from all but the owner.
    QJsonObject confirmation(const QString &invocationId, bool owner) const;
    // SPEC §10's body, strictly: `key` a non-empty string, `body` a string, `shape` a bool,
    // `audience` a string, `parent` and `trace` ids together, nothing else; the 400 names
    // the member.
    static std::optional<ServerReply> badMember(const QJsonObject &object);
    ServerReply contract(const QString &key, const QString &format) const;
    ServerReply registry() const;

    std::shared_ptr<const DirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    Dispatcher &m_dispatcher;
    QString m_baseUrl;
};
