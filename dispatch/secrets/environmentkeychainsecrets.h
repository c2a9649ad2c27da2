#pragma once

#include "dispatch/secrets/keychainstore.h"
#include "dispatch/secrets/secretsource.h"

#include <memory>

class MemorySecrets;

// The production SecretSource (SPEC §3 Auth): the process environment first, then, when
// given, the values kept in memory for want of a keychain, then the OS keychain (service
// "capdesk", account NAME). An environment variable that is set but empty counts as unset,
// so an exported-but-blank variable cannot shadow the keychain with an empty credential. An
// unreachable keychain counts as Missing: the call proceeds without a credential, which is
// what the spec asks for when a value is absent.
//
// Memory comes before the keychain because a value can only be put there while the keychain
// does not answer, and it is the owner's latest word for this run; a name found there also
// costs no keychain round trip. Storing a value in the keychain drops the memory copy of its
// name (SecretsDialog), so nothing old shadows it.
class EnvironmentKeychainSecrets final : public SecretSource
{
public:
    explicit EnvironmentKeychainSecrets(const KeychainStore &keychain,
                                        std::shared_ptr<const MemorySecrets> memory = {});

    Lookup lookup(const QString &name) const override;
    void lookupAsync(const QString &name, QObject *context,
                     std::function<void(const Lookup &)> done) const override;

private:
    // The environment's value, or else the memory's; nothing when neither has one.
    std::optional<Lookup> withoutKeychain(const QString &name) const;
    static Lookup fromKeychain(const KeychainStore::Read &entry);

    const KeychainStore &m_keychain;
    std::shared_ptr<const MemorySecrets> m_memory;
};
