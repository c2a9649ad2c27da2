#pragma once

#include "dispatcher.h"
#include "runner.h"

#include <QHash>
#include <QList>
#include <QPointer>

#include <memory>

class DirectoryStore;
class InvocationHandle;
class SecretSource;

// Runs invocations in this process against a DirectoryStore, one Runner per `type`.
// A caller may delete its handle at any time; a late result is then dropped.
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
    // Calls not yet reported, finished with an error if this dispatcher goes first
    // (the directory was closed), so no caller waits forever.
    QList<QPointer<InvocationHandle>> m_open;
};
