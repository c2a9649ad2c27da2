#include "dispatch/secrets/environmentkeychainsecrets.h"

#include "dispatch/secrets/memorysecrets.h"

#include <QMetaObject>

EnvironmentKeychainSecrets::EnvironmentKeychainSecrets(const KeychainStore &keychain,
                                                       std::shared_ptr<const MemorySecrets> memory)
    : m_keychain(keychain), m_memory(std::move(memory))
{}

SecretSource::Lookup EnvironmentKeychainSecrets::lookup(const QString &name) const
{
    if (name.isEmpty())
        return {};
    if (const std::optional<Lookup> found = withoutKeychain(name))
        return *found;
    return fromKeychain(m_keychain.read(name));
}

void EnvironmentKeychainSecrets::lookupAsync(const QString &name, QObject *context,
                                             std::function<void(const Lookup &)> done) const
{
    if (name.isEmpty())
        return SecretSource::lookupAsync(name, context, std::move(done));
    if (const std::optional<Lookup> found = withoutKeychain(name)) {
        QMetaObject::invokeMethod(
            context, [done = std::move(done), found = *found] { done(found); }, Qt::QueuedConnection);
        return;
    }
    m_keychain.readAsync(name, context, [done = std::move(done)](const KeychainStore::Read &entry) {
        done(fromKeychain(entry));
    });
}

std::optional<SecretSource::Lookup> EnvironmentKeychainSecrets::withoutKeychain(const QString &name) const
{
    const QString value = qEnvironmentVariable(name.toLocal8Bit().constData());
    if (!value.isEmpty())
        return Lookup{Origin::Environment, value};
    if (m_memory) {
        Lookup kept = m_memory->lookup(name);
        if (kept.origin == Origin::Memory)
            return kept;
    }
    return std::nullopt;
}

SecretSource::Lookup EnvironmentKeychainSecrets::fromKeychain(const KeychainStore::Read &entry)
{
    if (entry.status == KeychainStore::Read::Status::Found && !entry.value.isEmpty())
        return {Origin::Keychain, entry.value};
    return {};
}
