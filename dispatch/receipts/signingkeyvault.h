#pragma once

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/secrets/keychainstore.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

class KeychainSteps;
class QObject;
class SigningKeySuccession;
struct SigningKeyList;

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
        enum class Storage { Keychain, File } storage = Storage::File;
        QString location; // "keychain entry receipt-signing-key:<id>" or the file path
    };

    using Unlocking = std::function<void(const std::optional<Unlocked> &key, const QString &error)>;

    // A key made by startNewKey(), and what its succession says.
    struct NewKey
    {
        Unlocked unlocked;
        QList<PublicKey> follows; // the keys it vouches for
        QString vouchedBy; // the id of the key held here that signed for it; empty when none was
        QList<PublicKey> leftOut; // listed keys it does not follow: none trusted them
    };
    using Starting = std::function<void(const std::optional<NewKey> &key, const QString &error)>;

    // Default: the file is where Capdesk looks by itself, and a key is made there when none
    // can be found. Named: someone typed the path (`--signing-key`), and a path that holds
    // nothing is more likely a slip than a wish for a second key, once the directory has one.
    enum class KeyFile { Default, Named };

    // `keychain` may be null: the key then lives in `keyFilePath`. `directory` names the
    // directory in the commands messages suggest (`--db`), when known.
    SigningKeyVault(const QSqlDatabase &db, const QString &keyFilePath, KeychainStore *keychain,
                    KeyFile keyFile = KeyFile::Default, const QString &directory = QString());

    // The newest key whose private half can be found; a new pair, or a key file's key the
    // directory does not list, only while the directory has no key: a second key would sign
    // apart from the first, and `log --verify` trusts the key held here and the keys its
    // successions link it to. A key that a listed succession follows signs no more. Blocks
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
    // A new pair that signs from now on (`signing-key new`), listed with its
    // SigningKeySuccession, for a directory whose key is lost or should sign no more. With a
    // key held here, the new key follows the keys that key trusts (itself, and those its
    // successions link), and the held key signs for it; `follow` is not read. Without one,
    // it follows the listed keys whose ids `follow` names, which must not be empty. The new
    // key goes where the held key was (a key file holding it is replaced), else where
    // unlock() makes one; a file holding anything else is refused. Blocks like unlock().
    std::optional<NewKey> startNewKey(const QStringList &follow, QString *error);
    // The same without blocking this thread, as unlockAsync().
    void startNewKeyAsync(QObject *context, const QStringList &follow, Starting done);
    // Every key receipts may have been signed with, newest first.
    QList<PublicKey> publicKeys() const;

    static QString storageDescription(const Unlocked &unlocked);
    // Where a key is looked for: the named file, or the keychain and the file beside the
    // directory.
    QString placesLooked() const;

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
    void startNewKey(KeychainSteps steps, const QStringList &follow, Starting done);
    // What the new key follows and who vouches, or why it cannot be made.
    std::optional<NewKey> planNewKey(const SigningKeyList &listed, const std::optional<Unlocked> &held,
                                     const QStringList &follow, QString *error) const;
    // Answers with `unlocked`, unless a listed succession follows it while a key is wanted
    // for signing.
    void found(const SearchPtr &search, const Unlocked &unlocked);
    void createKey(const SearchPtr &search);
    // Into the keychain when one answers, else the key file; a Named file always.
    void storeKey(const SearchPtr &search, const SigningKey &key);
    void placeInFile(const SearchPtr &search, const SigningKey &key);
    // Asks once per search whether a Secret Service answers: the answer can take seconds.
    void withKeychain(const SearchPtr &search, std::function<void(bool available)> then);
    static void finish(const SearchPtr &search, const std::optional<Unlocked> &key, const QString &error);

    Lookup readKeyFile(std::optional<SigningKey> *key, QString *error) const;
    static Lookup checkKeychainEntry(const QString &keyId, const KeychainStore::Read &entry,
                                     std::optional<SigningKey> *key, QString *error);
    bool writeKeyFile(const QByteArray &pem, QString *error) const;
    // The path of a private, synced copy of `pem` beside the key file; empty on failure.
    QString writeTemporaryKeyFile(const QByteArray &pem, QString *error) const;
    // A succession's key: listed first, then placed as the key file.
    std::optional<Unlocked> replaceKeyFile(const SigningKey &key, const Search &search, QString *error);
    std::optional<Unlocked> adoptKeyFile(const SigningKey &key, QString *error);
    bool insertPublicKey(const PublicKey &key, const std::optional<SigningKeySuccession> &succession,
                         QString *error);

    // Why no key here can sign for a directory that signs with `signer`: nothing is held
    // (`heldKeyId` empty), or the key file holds another directory's key.
    QString notThisDirectorysKey(const QString &heldKeyId, const PublicKey &signer) const;
    // What starts a new key, in words for the message above.
    QString newKeyCommand() const;

    QSqlDatabase m_db;
    QString m_keyFilePath;
    KeychainStore *m_keychain;
    KeyFile m_keyFile;
    QString m_directory;
};
