#pragma once

#include "dispatcher.h"
#include "runner.h"

#include <QHash>

#include <memory>

class DirectoryStore;
class SecretSource;

// Runs invocations in this process against a DirectoryStore, one Runner per `type`.
class LocalDispatcher final : public Dispatcher
{
public:
    LocalDispatcher(std::shared_ptr<const DirectoryStore> store, std::shared_ptr<const SecretSource> secrets);
    ~LocalDispatcher() override;

    void setRunner(const QString &type, std::unique_ptr<Runner> runner);
    InvocationHandle *invoke(const InvocationRequest &request) override;

private:
    std::shared_ptr<const DirectoryStore> m_store;
    std::shared_ptr<const SecretSource> m_secrets;
    QHash<QString, std::shared_ptr<Runner>> m_runners;
};
