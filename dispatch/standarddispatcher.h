#pragma once

#include "agentendpoints.h"
#include "dispatcher.h"
#include "environmentkeychainsecrets.h"
#include "httpclient.h"
#include "keychainstore.h"
#include "localdispatcher.h"

#include <memory>

class DirectoryStore;

// The dispatcher the GUI and capdeskctl use for a local directory: the fn, http and agent
// runners over one HttpClient, secrets from the environment first, then the keychain.
class StandardDispatcher final : public Dispatcher
{
public:
    explicit StandardDispatcher(std::shared_ptr<const DirectoryStore> store,
                                AgentEndpoints endpoints = AgentEndpoints::defaults());
    ~StandardDispatcher() override;
    Q_DISABLE_COPY_MOVE(StandardDispatcher)

    InvocationHandle *invoke(const InvocationRequest &request) override;
    HttpClient &httpClient() { return m_client; }

private:
    KeychainStore m_keychain;
    HttpClient m_client;
    LocalDispatcher m_local;
};
