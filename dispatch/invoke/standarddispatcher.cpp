#include "dispatch/invoke/standarddispatcher.h"

#include "dispatch/flows/run/flowrunner.h"
#include "dispatch/runners/agentrunner.h"
#include "dispatch/runners/fnrunner.h"
#include "dispatch/runners/httprunner.h"

StandardDispatcher::StandardDispatcher(std::shared_ptr<const DirectoryStore> store,
                                       std::shared_ptr<DirectoryLedger> ledger, AgentEndpoints endpoints,
                                       const DispatchLimits &limits,
                                       std::shared_ptr<const MemorySecrets> memory)
    : m_local(std::move(store), std::make_shared<EnvironmentKeychainSecrets>(m_keychain, std::move(memory)),
              std::move(ledger))
{
    m_client.setCaFile(qEnvironmentVariable("CAPDESK_CA_FILE"));
    m_local.setLimits(limits);
    m_local.setRunner(QStringLiteral("fn"), std::make_unique<FnRunner>());
    m_local.setRunner(QStringLiteral("http"), std::make_unique<HttpRunner>(m_client));
    m_local.setRunner(QStringLiteral("agent"), std::make_unique<AgentRunner>(m_client, std::move(endpoints)));
    m_local.setRunner(QStringLiteral("flow"), std::make_unique<FlowRunner>(limits.flow));
}

StandardDispatcher::~StandardDispatcher() = default;

InvocationHandle *StandardDispatcher::invoke(const InvocationRequest &request)
{
    return m_local.invoke(request);
}

InvocationHandle *StandardDispatcher::recordFlowRun(const FlowRunRecord &run)
{
    return m_local.recordFlowRun(run);
}
