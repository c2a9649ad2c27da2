#pragma once

#include "dispatch/secrets/keychainstore.h"
#include "dispatch/secrets/secretsource.h"

// The production SecretSource (SPEC §3 Auth): the process environment first, then the
// OS keychain (service "capdesk", account NAME). An environment variable that is set but
// empty counts as unset, so an exported-but-blank variable cannot shadow the keychain
// with an empty credential. An unreachable keychain counts as Missing: the call proceeds
// without a credential, which is what the spec asks for when a value is absent.
class EnvironmentKeychainSecrets final : public SecretSource
{
public:
    explicit EnvironmentKeychainSecrets(const KeychainStore &keychain);

    Lookup lookup(const QString &name) const override;
    void lookupAsync(const QString &name, QObject *context,
                     std::function<void(const Lookup &)> done) const override;

private:
    // The environment's value, or nothing when the variable is unset or empty.
    static std::optional<Lookup> fromEnvironment(const QString &name);
    static Lookup fromKeychain(const KeychainStore::Read &entry);

    const KeychainStore &m_keychain;
};
