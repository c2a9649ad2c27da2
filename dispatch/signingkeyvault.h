#pragma once

#include "publickey.h"
#include "signingkey.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>

#include <optional>

class KeychainStore;

// Where a directory's receipt-signing key lives (SPEC §6). The public halves are rows of
// signing_keys in the directory file, so every receipt stays verifiable from the file
// alone; the private half is in the OS keychain, or, when no Secret Service answers, in
// the file `<directory>.signing-key` readable by its owner only.
class SigningKeyVault final
{
public:
    struct Unlocked
    {
        SigningKey key;
        enum class Storage { Keychain, File } storage;
        QString location; // "keychain entry receipt-signing-key:<id>" or the file path
    };

    // `keychain` may be null: the key then lives in the file.
    SigningKeyVault(QSqlDatabase db, QString databasePath, KeychainStore *keychain);

    // The newest key whose private half can be found, or a new pair when none can. Blocks
    // while the keychain answers. Errors name the place that failed and never contain key
    // material.
    std::optional<Unlocked> unlock(QString *error);
    // Every key receipts may have been signed with, newest first.
    QList<PublicKey> publicKeys() const;

    static QString storageDescription(const Unlocked &unlocked);

private:
    // Refused: the place holds something that must not be used nor replaced.
    enum class Lookup { Absent, Found, Refused };

    std::optional<QList<PublicKey>> readPublicKeys(QString *error) const;
    Lookup readKeyFile(std::optional<SigningKey> *key, QString *error) const;
    bool keychainAvailable();
    Lookup readKeychainEntry(const QString &keyId, std::optional<SigningKey> *key, QString *error) const;
    std::optional<Unlocked> createKey(QString *error);
    bool writeKeyFile(const QByteArray &pem, QString *error) const;
    std::optional<Unlocked> adoptKeyFile(const SigningKey &key, QString *error);
    bool insertPublicKey(const PublicKey &key, QString *error);

    QSqlDatabase m_db;
    QString m_keyFilePath;
    KeychainStore *m_keychain;
    std::optional<bool> m_keychainAvailable; // asked once: the answer can take seconds
};
