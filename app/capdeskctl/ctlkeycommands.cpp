#include "app/capdeskctl/ctlkeycommands.h"

#include "app/capdeskctl/ctloutput.h"
#include "dispatch/secrets/keychainstore.h"
#include "dispatch/receipts/signingkeyvault.h"
#include "dispatch/store/sqlitedirectorystore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonObject>

CtlKeyCommands::CtlKeyCommands(const CtlArguments &args, std::shared_ptr<SqliteDirectoryStore> store)
    : m_args(args), m_store(std::move(store))
{}

int CtlKeyCommands::publicKey()
{
    const QString databasePath = m_store->location();
    const QString outFile = m_args.value(QStringLiteral("--out"));
    // Either file holds what cannot be recovered from a public key.
    for (const QString &precious : {databasePath, databasePath + QStringLiteral(".signing-key")}) {
        if (!outFile.isEmpty()
            && QFileInfo(outFile).absoluteFilePath() == QFileInfo(precious).absoluteFilePath())
            return CtlOutput::usage(
                QStringLiteral("--out names %1; writing there would destroy it").arg(precious));
    }
    KeychainStore keychain;
    SigningKeyVault vault(m_store->database(), databasePath, &keychain);
    QString error;
    const std::optional<SigningKeyVault::Unlocked> unlocked = vault.unlock(&error);
    if (!unlocked)
        return CtlOutput::fail(StoreError::make(StoreError::Kind::Io, error));
    const PublicKey publicKey = unlocked->key.publicKey();
    const QByteArray pem = publicKey.pem();
    if (outFile.isEmpty()) {
        CtlOutput::printRaw(pem);
        return CtlOutput::Ok;
    }
    QFile out(outFile);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(pem) != pem.size() || !out.flush())
        return CtlOutput::fail(StoreError::make(
            StoreError::Kind::Io, QStringLiteral("cannot write %1: %2").arg(outFile, out.errorString())));
    CtlOutput::printJson(
        QJsonObject{{QStringLiteral("ok"), true},
                    {QStringLiteral("key_id"), publicKey.keyId()},
                    {QStringLiteral("storage"), SigningKeyVault::storageDescription(*unlocked)},
                    {QStringLiteral("out"), outFile}});
    return CtlOutput::Ok;
}
