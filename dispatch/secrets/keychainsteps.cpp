#include "dispatch/secrets/keychainsteps.h"

#include <QMetaObject>

KeychainSteps::KeychainSteps(QObject *context) : m_context(context) {}

KeychainSteps KeychainSteps::blocking()
{
    return KeychainSteps(nullptr);
}

KeychainSteps KeychainSteps::onContext(QObject *context)
{
    return KeychainSteps(context);
}

void KeychainSteps::read(const QString &name, std::function<void(const KeychainStore::Read &)> then) const
{
    if (isBlocking())
        then(KeychainStore().read(name));
    else
        KeychainStore().readAsync(name, m_context, std::move(then));
}

void KeychainSteps::set(const QString &name, const QString &value,
                        std::function<void(const KeychainStore::Outcome &)> then) const
{
    KeychainStore keychain;
    if (!isBlocking()) {
        keychain.setAsync(name, value, m_context, std::move(then));
        return;
    }
    KeychainStore::Outcome outcome;
    outcome.ok = keychain.set(name, value, &outcome.error);
    then(outcome);
}

void KeychainSteps::remove(const QString &name,
                           std::function<void(const KeychainStore::Outcome &)> then) const
{
    KeychainStore keychain;
    if (!isBlocking()) {
        keychain.removeAsync(name, m_context, std::move(then));
        return;
    }
    KeychainStore::Outcome outcome;
    outcome.ok = keychain.remove(name, &outcome.error);
    then(outcome);
}

void KeychainSteps::available(std::function<void(const KeychainStore::Outcome &)> then) const
{
    const KeychainStore keychain;
    if (!isBlocking()) {
        keychain.availableAsync(m_context, std::move(then));
        return;
    }
    KeychainStore::Outcome outcome;
    outcome.ok = keychain.available(&outcome.error);
    then(outcome);
}

void KeychainSteps::next(std::function<void()> then) const
{
    if (isBlocking())
        then();
    else
        QMetaObject::invokeMethod(m_context, std::move(then), Qt::QueuedConnection);
}
