#pragma once

#include "dispatch/call/dispatcher.h"
#include "remote/serverrequest.h"

#include <memory>

class ServerConnection;
struct ServerResponse;

// Invocations run by a server: POST /api/dispatch {"key","body","shape"?}. invoke()
// returns at once; the answer is read on the connection's network thread and the handle
// finished on the thread that called invoke(). The outcome carries the same fields a
// local call fills (output, trace, invocation id, shape request and notes), and a refusal
// carries the server's words and status (401/403/404/409/413/422/504, or no answer).
// A request with a token is sent as `Authorization: Bearer` without the owner key (with
// it too when the owner is present). A real call's signed receipt is then fetched with the
// keyless confirm, so the outcome carries it as a local call's does; a server that does not
// hand it over leaves receiptError saying where it is. An unsaved draft cannot be sent
// (SPEC §10 dispatches stored rows): such a request is refused. A call answered after
// this dispatcher is gone still finishes its handle.
class RemoteDispatcher final : public Dispatcher
{
public:
    explicit RemoteDispatcher(std::shared_ptr<ServerConnection> connection);
    ~RemoteDispatcher() override;

    InvocationHandle *invoke(const InvocationRequest &request) override;
    // POST /api/flow-runs, our server's owner-only route; a plain SPEC §10 server has none
    // and answers 404, which the outcome's refusal says.
    InvocationHandle *recordFlowRun(const FlowRunRecord &run) override;

    // The POST /api/dispatch a request becomes.
    static ServerRequest requestFor(const InvocationRequest &request);
    // The outcome a server's answer to a dispatch stands for.
    static InvocationOutcome outcomeOf(const ServerResponse &response, const InvocationRequest &request,
                                       const QString &location);

    struct Pending;

private:
    std::shared_ptr<Pending> pendingFor(const InvocationRequest &request) const;
    // Sends a dispatch-shaped request and finishes the pending call with its outcome and,
    // for a real call, the receipt fetched by the keyless confirm.
    static void send(const std::shared_ptr<ServerConnection> &connection, const ServerRequest &sent,
                     const std::shared_ptr<Pending> &pending);
    static bool refusedParent(const ServerResponse &response, const InvocationRequest &request);

    std::shared_ptr<ServerConnection> m_connection;
};
