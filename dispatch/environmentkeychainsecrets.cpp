#include "environmentkeychainsecrets.h"

#include "keychainstore.h"

EnvironmentKeychainSecrets::EnvironmentKeychainSecrets(const KeychainStore &keychain) : m_keychain(keychain)
{}

SecretSource::Lookup EnvironmentKeychainSecrets::lookup(const QString &name) const
{
    if (name.isEmpty())
        return {};
    const QString fromEnvironment = qEnvironmentVariable(name.toLocal8Bit().constData());
    if (!fromEnvironment.isEmpty())
        return {Origin::Environment, fromEnvironment};
    const KeychainStore::Read entry = m_keychain.read(name);
    if (entry.status == KeychainStore::Read::Status::Found && !entry.value.isEmpty())
        return {Origin::Keychain, entry.value};
    return {};
}
