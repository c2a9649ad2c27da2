#pragma once

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/secrets/keychainstore.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class KeychainSteps;
class QObject;

// Where a directory's receipt-signing key lives (SPEC §6). The public halves are rows of
// signing_keys in the directory file, so every receipt stays verifiable from the file
// alone; the private half is in the OS keychain, or, when no Secret Service answers, in
// a PEM file readable by its owner only: `<directory>.signing-key` beside a directory file
// (DefaultLocations::signingKeyFile), or the file `serve --signing-key` names, which is how
// several servers on one PostgreSQL directory sign with one key.
class SigningKeyVault final
{
public:
    struct Unlocked
    {
        SigningKey key;
        enum class Storage { Keychain, File } storage;
        QString location; // "keychain entry receipt-signing-key:<id>" or the file path
    };

    using Unlocking = std::function<void(const std::optional<Unlocked> &key, const QString &error)>;

    // Default: the file is where Capdesk looks by itself, and a key is made there when none
    // can be found. Named: someone typed the path (`--signing-key`), and a path that holds
    // nothing is more likely a slip than a wish for a second key, once the directory has one.
    enum class KeyFile { Default, Named };

    // `keychain` may be null: the key then lives in `keyFilePath`.
    SigningKeyVault(const QSqlDatabase &db, const QString &keyFilePath, KeychainStore *keychain,
                    KeyFile keyFile = KeyFile::Default);

    // The newest key whose private half can be found, or a new pair when none can. A Named
    // key file's new pair, or a key in it that the directory does not list, only while the
    // directory has no key: a second key would sign apart from the first, and `log --verify`
    // trusts one. Blocks
    // while the keychain answers (for the CLI). Errors name the place that failed and never
    // contain key material.
    std::optional<Unlocked> unlock(QString *error);
    // The same search, but it never makes a key nor writes anything: none, with `error`
    // empty, when no key is held here. For checks (`log --verify`), which a new key could
    // only confuse.
    std::optional<Unlocked> find(QString *error);
    // The same search without blocking this thread: each keychain question is asked
    // asynchronously and `done` runs later in `context`'s event loop. `context` lives on
    // the database's thread and is destroyed no later than the vault.
    void unlockAsync(QObject *context, Unlocking done);
    // Every key receipts may have been signed with, newest first.
    QList<PublicKey> publicKeys() const;

    static QString storageDescription(const Unlocked &unlocked);

    // The key in the key file, with the same checks unlock() makes (owner-only, no
    // symlink, a valid PEM); none when there is no file, with `error` set when it is refused.
    std::optional<SigningKey> keyInFile(QString *error) const;
    // Writes `key` as the key file, owner-only; never replaces a file that is there. For
    // `migrate`, which carries a directory's key file to where the new location looks.
    bool keepInFile(const SigningKey &key, QString *error) const;

private:
    // Refused: the place holds something that must not be used nor replaced.
    enum class Lookup { Absent, Found, Refused };
    // One unlock under way: what it has learnt so far and whom to answer.
    struct Search;
    using SearchPtr = std::shared_ptr<Search>;

    enum class Missing { Create, Report };
    std::optional<Unlocked> searchBlocking(Missing missing, QString *error);
    void search(KeychainSteps steps, Unlocking done, Missing missing = Missing::Create);
    void tryKey(const SearchPtr &search, qsizetype index);
    void createKey(const SearchPtr &search);
    void placeInFile(const SearchPtr &search, const SigningKey &key);
    // Asks once per search whether a Secret Service answers: the answer can take seconds.
    void withKeychain(const SearchPtr &search, std::function<void(bool available)> then);
    static void finish(const SearchPtr &search, const std::optional<Unlocked> &key, const QString &error);

    std::optional<QList<PublicKey>> readPublicKeys(QString *error) const;
    Lookup readKeyFile(std::optional<SigningKey> *key, QString *error) const;
    static Lookup checkKeychainEntry(const QString &keyId, const KeychainStore::Read &entry,
                                     std::optional<SigningKey> *key, QString *error);
    bool writeKeyFile(const QByteArray &pem, QString *error) const;
    std::optional<Unlocked> adoptKeyFile(const SigningKey &key, QString *error);
    bool insertPublicKey(const PublicKey &key, QString *error);

    // Why a Named file cannot serve a directory that signs with `signer`: it holds nothing
    // (`heldKeyId` empty), or another directory's key.
    QString namedFileRefused(const QString &heldKeyId, const PublicKey &signer) const;

    QSqlDatabase m_db;
    QString m_keyFilePath;
    KeychainStore *m_keychain;
    KeyFile m_keyFile;
};
