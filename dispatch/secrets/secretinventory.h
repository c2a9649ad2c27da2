#pragma once

#include "dispatch/secrets/keychainstore.h"
#include "dispatch/store/directorystore.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

class MemorySecrets;

// Which secret NAMEs the directory refers to and where each has a value (SPEC §3 Auth),
// for the Secrets dialog. It holds names, counts and yes/no answers only: presence is
// checked without keeping any value, so the inventory can be shown, copied and logged.
class SecretInventory final
{
public:
    enum class KeychainState { Unavailable, Checking, Absent, Present };

    // One `auth` text split into its parts, read exactly as the request builder reads it.
    struct Reference
    {
        QString form; // "bearer", "basic", "query:key", "query:PARAM"
        QString name;
    };

    struct Secret
    {
        QString name;
        QStringList forms; // sorted, each once
        int rows = 0;
        bool inEnvironment = false;
        bool inMemory = false; // kept for this run only (MemorySecrets)
        KeychainState keychain = KeychainState::Unavailable;
    };

    // nullopt for an auth the request builder refuses as malformed.
    static std::optional<Reference> parse(const QString &auth);

    // One entry per name, in name order. Malformed auth texts are only counted: such a text
    // names no secret, and it may well be a pasted credential that must not be displayed.
    static SecretInventory fromUsage(const QList<AuthUsage> &usage);

    // Fills in the origins: the environment (set and non-empty, as the lookup counts it)
    // and, when `keychain` is given (null: no Secret Service), whether it has an entry.
    // Blocks while the keychain answers.
    void checkOrigins(const KeychainStore *keychain);
    // The environment's part only, every keychain state left Checking, for a caller that
    // asks the keychain asynchronously and fills in each answer with setKeychainState().
    void checkEnvironment();
    void setKeychainState(const QString &name, KeychainState state);
    // Which names have a value kept in memory; asks nothing that waits.
    void checkMemory(const MemorySecrets &memory);
    static KeychainState keychainStateOf(const KeychainStore::Read &entry);

    const QList<Secret> &secrets() const { return m_secrets; }
    int malformedRows() const { return m_malformedRows; }

    static bool inEnvironment(const QString &name);

private:
    QList<Secret> m_secrets;
    int m_malformedRows = 0;
};
