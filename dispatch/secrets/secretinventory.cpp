#include "dispatch/secrets/secretinventory.h"

#include "dispatch/row/authspec.h"
#include "dispatch/secrets/memorysecrets.h"

#include <QMap>

#include <algorithm>

std::optional<SecretInventory::Reference> SecretInventory::parse(const QString &auth)
{
    const std::optional<AuthSpec> spec = AuthSpec::parse(auth);
    if (!spec)
        return std::nullopt;
    return Reference{spec->form(), spec->name};
}

SecretInventory SecretInventory::fromUsage(const QList<AuthUsage> &usage)
{
    SecretInventory inventory;
    QMap<QString, Secret> byName;
    for (const AuthUsage &use : usage) {
        const std::optional<Reference> reference = parse(use.auth);
        if (!reference) {
            inventory.m_malformedRows += use.rows;
            continue;
        }
        Secret &secret = byName[reference->name];
        secret.name = reference->name;
        secret.rows += use.rows;
        if (!secret.forms.contains(reference->form))
            secret.forms.append(reference->form);
    }
    for (Secret &secret : byName) {
        std::sort(secret.forms.begin(), secret.forms.end());
        inventory.m_secrets.append(secret);
    }
    return inventory;
}

void SecretInventory::checkOrigins(const KeychainStore *keychain)
{
    checkEnvironment();
    for (Secret &secret : m_secrets)
        secret.keychain =
            keychain ? keychainStateOf(keychain->read(secret.name)) : KeychainState::Unavailable;
}

void SecretInventory::checkEnvironment()
{
    for (Secret &secret : m_secrets) {
        secret.inEnvironment = inEnvironment(secret.name);
        secret.keychain = KeychainState::Checking;
    }
}

void SecretInventory::setKeychainState(const QString &name, KeychainState state)
{
    for (Secret &secret : m_secrets) {
        if (secret.name == name)
            secret.keychain = state;
    }
}

void SecretInventory::checkMemory(const MemorySecrets &memory)
{
    for (Secret &secret : m_secrets)
        secret.inMemory = memory.has(secret.name);
}

SecretInventory::KeychainState SecretInventory::keychainStateOf(const KeychainStore::Read &entry)
{
    switch (entry.status) {
    case KeychainStore::Read::Status::Found:
        return KeychainState::Present;
    case KeychainStore::Read::Status::NotFound:
        return KeychainState::Absent;
    case KeychainStore::Read::Status::Unavailable:
        break;
    }
    return KeychainState::Unavailable;
}

bool SecretInventory::inEnvironment(const QString &name)
{
    // An empty variable counts as unset, as in EnvironmentKeychainSecrets::lookup.
    return !qEnvironmentVariableIsEmpty(name.toLocal8Bit().constData());
}
