#pragma once

#include "dispatch/call/dispatcher.h"
#include "dispatch/core/dispatchlimits.h"
#include "dispatch/invoke/localdispatcher.h"
#include "dispatch/runners/agentendpoints.h"
#include "dispatch/runners/httpclient.h"
#include "dispatch/secrets/environmentkeychainsecrets.h"
#include "dispatch/secrets/keychainstore.h"

#include <memory>

class DirectoryLedger;
class DirectoryStore;
class MemorySecrets;

// The dispatcher the GUI and capdeskctl use for a local directory: the fn, http and agent
// runners over one HttpClient (which trusts the CA file CAPDESK_CA_FILE names, beside the
// system roots), secrets from the environment first, then `memory` (the app's values kept
// for want of a keychain; null in the CLI), then the keychain, receipts and token checks
// through the directory's ledger, every call under `limits`.
class StandardDispatcher final : public Dispatcher
{
public:
    StandardDispatcher(std::shared_ptr<const DirectoryStore> store, std::shared_ptr<DirectoryLedger> ledger,
                       AgentEndpoints endpoints = AgentEndpoints::defaults(),
                       const DispatchLimits &limits = {}, std::shared_ptr<const MemorySecrets> memory = {});
    ~StandardDispatcher() override;
    Q_DISABLE_COPY_MOVE(StandardDispatcher)

    InvocationHandle *invoke(const InvocationRequest &request) override;
    InvocationHandle *recordFlowRun(const FlowRunRecord &run) override;
    HttpClient &httpClient() { return m_client; }

private:
    KeychainStore m_keychain;
    HttpClient m_client;
    LocalDispatcher m_local;
};
