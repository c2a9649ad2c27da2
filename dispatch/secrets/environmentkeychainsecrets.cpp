#include "dispatch/secrets/environmentkeychainsecrets.h"

#include <QMetaObject>

EnvironmentKeychainSecrets::EnvironmentKeychainSecrets(const KeychainStore &keychain) : m_keychain(keychain)
{}

SecretSource::Lookup EnvironmentKeychainSecrets::lookup(const QString &name) const
{
    if (name.isEmpty())
        return {};
    if (const std::optional<Lookup> found = fromEnvironment(name))
        return *found;
    return fromKeychain(m_keychain.read(name));
}

void EnvironmentKeychainSecrets::lookupAsync(const QString &name, QObject *context,
                                             std::function<void(const Lookup &)> done) const
{
    if (name.isEmpty())
        return SecretSource::lookupAsync(name, context, std::move(done));
    if (const std::optional<Lookup> found = fromEnvironment(name)) {
        QMetaObject::invokeMethod(
            context, [done = std::move(done), found = *found] { done(found); }, Qt::QueuedConnection);
        return;
    }
    m_keychain.readAsync(name, context, [done = std::move(done)](const KeychainStore::Read &entry) {
        done(fromKeychain(entry));
    });
}

std::optional<SecretSource::Lookup> EnvironmentKeychainSecrets::fromEnvironment(const QString &name)
{
    const QString value = qEnvironmentVariable(name.toLocal8Bit().constData());
    if (value.isEmpty())
        return std::nullopt;
    return Lookup{Origin::Environment, value};
}

SecretSource::Lookup EnvironmentKeychainSecrets::fromKeychain(const KeychainStore::Read &entry)
{
    if (entry.status == KeychainStore::Read::Status::Found && !entry.value.isEmpty())
        return {Origin::Keychain, entry.value};
    return {};
}
