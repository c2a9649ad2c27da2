#pragma once

#include "dispatch/runners/agentendpoints.h"
#include "dispatch/runners/runner.h"

class HttpClient;
struct HttpCallPlan;

// The `agent` runner (SPEC §3): an OpenAI-compatible chat completion. The system prompt
// is the payloads of the `includes` rows (each one's own includes first, in order,
// cycle-checked, a row used once at its first place), then this row's payload, joined by
// blank lines; the user message is the body. The base URL comes from
// CAPDESK_AGENT_BASE_URL when set, else from the endpoints by model name. The row's auth
// is applied exactly as for http rows. Output: choices[0].message.content.
class AgentRunner final : public Runner
{
public:
    AgentRunner(HttpClient &client, AgentEndpoints endpoints);

    void run(const RunContext &context, std::function<void(RunResult)> done) override;

    struct Prompt
    {
        QString text;
        QString error; // "ERR: includes cycle: A > B > A", "ERR: include X not found"
    };
    static Prompt composeSystemPrompt(const Row &row, const DirectoryStore *store);

    // The request for a context, unsent; plan.body is the chat JSON.
    HttpCallPlan buildPlan(const RunContext &context) const;

private:
    HttpClient &m_client;
    AgentEndpoints m_endpoints;
};
