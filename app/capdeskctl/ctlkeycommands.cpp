#include "app/capdeskctl/ctlkeycommands.h"

#include "app/capdeskctl/ctloutput.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/defaultlocations.h"
#include "dispatch/store/directorystore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonObject>

CtlKeyCommands::CtlKeyCommands(const CtlArguments &args, std::shared_ptr<DirectoryLedger> ledger)
    : m_args(args), m_ledger(std::move(ledger))
{}

int CtlKeyCommands::publicKey()
{
    const QString databasePath = m_ledger->store()->location();
    const QString keyFile = m_args.has(QStringLiteral("--signing-key"))
                                ? m_args.value(QStringLiteral("--signing-key"))
                                : DefaultLocations::signingKeyFile(databasePath);
    const QString outFile = m_args.value(QStringLiteral("--out"));
    // Either file holds what cannot be recovered from a public key.
    for (const QString &precious : {databasePath, keyFile}) {
        if (!outFile.isEmpty()
            && QFileInfo(outFile).absoluteFilePath() == QFileInfo(precious).absoluteFilePath())
            return CtlOutput::usage(
                QStringLiteral("--out names %1; writing there would destroy it").arg(precious));
    }
    const StoreResult<SigningKey> key = m_ledger->signingKey();
    if (!key.ok())
        return CtlOutput::fail(key.error());
    const StoreResult<QString> storage = m_ledger->keyStorage();
    if (!storage.ok())
        return CtlOutput::fail(storage.error());
    const PublicKey publicKey = key.value().publicKey();
    const QByteArray pem = publicKey.pem();
    if (outFile.isEmpty()) {
        CtlOutput::printRaw(pem);
        return CtlOutput::Ok;
    }
    QFile out(outFile);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(pem) != pem.size() || !out.flush())
        return CtlOutput::fail(StoreError::make(
            StoreError::Kind::Io, QStringLiteral("cannot write %1: %2").arg(outFile, out.errorString())));
    CtlOutput::printJson(QJsonObject{{QStringLiteral("ok"), true},
                                     {QStringLiteral("key_id"), publicKey.keyId()},
                                     {QStringLiteral("storage"), storage.value()},
                                     {QStringLiteral("out"), outFile}});
    return CtlOutput::Ok;
}
