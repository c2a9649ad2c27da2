#include "app/capdeskctl/ctlkeycommands.h"

#include "app/capdeskctl/ctloutput.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/defaultlocations.h"
#include "dispatch/store/directorystore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
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
    const StoreResult<PublicKey> key = m_ledger->publicKey();
    if (!key.ok())
        return CtlOutput::fail(key.error());
    const StoreResult<QString> storage = m_ledger->keyStorage();
    if (!storage.ok())
        return CtlOutput::fail(storage.error());
    const PublicKey &publicKey = key.value();
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

int CtlKeyCommands::startNew()
{
    const QString follow = m_args.value(QStringLiteral("--follow"));
    const StoreResult<SigningKeyVault::NewKey> made =
        m_ledger->startNewSigningKey(follow.isEmpty() ? QStringList() : follow.split(QLatin1Char(',')));
    if (!made.ok())
        return CtlOutput::fail(made.error());
    const SigningKeyVault::NewKey &key = made.value();
    const auto ids = [](const QList<PublicKey> &keys) {
        QStringList list;
        for (const PublicKey &one : keys)
            list.append(one.keyId());
        return list;
    };
    const QString keyId = key.unlocked.key.publicKey().keyId();
    CtlOutput::printJson(QJsonObject{
        {QStringLiteral("ok"), true},
        {QStringLiteral("key_id"), keyId},
        {QStringLiteral("follows"), QJsonArray::fromStringList(ids(key.follows))},
        {QStringLiteral("vouched_by"), key.vouchedBy.isEmpty() ? QJsonValue() : QJsonValue(key.vouchedBy)},
        {QStringLiteral("left_out"), QJsonArray::fromStringList(ids(key.leftOut))},
        {QStringLiteral("storage"), SigningKeyVault::storageDescription(key.unlocked)}});
    if (key.follows.isEmpty() && key.leftOut.isEmpty()) {
        CtlOutput::note(QStringLiteral("receipts are signed with key %1, the directory's first").arg(keyId));
        return CtlOutput::Ok;
    }
    CtlOutput::note(
        key.vouchedBy.isEmpty()
            ? QStringLiteral(
                  "receipts are now signed with key %1, which follows %2; no key held here could sign "
                  "for it, so a holder of an older key reads its receipts as another key's "
                  "(receipt_chain_other_key)")
                  .arg(keyId, ids(key.follows).join(QStringLiteral(", ")))
            : QStringLiteral(
                  "receipts are now signed with key %1, which follows %2; key %3, held here, signed for "
                  "it, so a holder of either trusts the receipts of both")
                  .arg(keyId, ids(key.follows).join(QStringLiteral(", ")), key.vouchedBy));
    if (!follow.isEmpty() && !key.vouchedBy.isEmpty())
        CtlOutput::note(
            QStringLiteral("--follow was not needed: the key held here chose what the new one follows"));
    if (!key.leftOut.isEmpty())
        CtlOutput::note(
            QStringLiteral("left out %1: listed, but trusted by no key held here, so log --verify "
                           "reports their receipts as receipt_chain_other_key")
                .arg(ids(key.leftOut).join(QStringLiteral(", "))));
    return CtlOutput::Ok;
}
