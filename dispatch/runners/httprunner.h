#pragma once

#include "dispatch/runners/runner.h"

class HttpClient;
struct HttpCallPlan;
struct HttpResponse;

// The `http` runner (SPEC §3): builds the request with HttpRequestBuilder and sends it
// through the shared HttpClient, on the client's thread. Output is
// "HTTP <status>:<body>" below 400, "ERR: HTTP <status>:<body>" from 400, and
// "ERR: <transport error>" when no response arrived. Secret values the call used are
// masked in the output too, so an upstream that echoes a credential cannot carry it into
// receipts.
class HttpRunner final : public Runner
{
public:
    explicit HttpRunner(HttpClient &client);

    void run(const RunContext &context, std::function<void(RunResult)> done) override;

    // Shared with the agent runner: the response as an output string, flagged when cut.
    static RunResult outputFor(const HttpResponse &response, const HttpCallPlan &plan);
    // The redacted shape request of a plan, or its error, for shape mode.
    static RunResult shapeFor(const HttpCallPlan &plan);

private:
    HttpClient &m_client;
};
