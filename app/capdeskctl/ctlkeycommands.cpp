#include "app/capdeskctl/ctlkeycommands.h"

#include "app/capdeskctl/ctloutput.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/defaultlocations.h"
#include "dispatch/store/directorystore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

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

int CtlKeyCommands::startNew()
{
    // Only asked, never made: the vouch below is the key that signed until now.
    const StoreResult<std::optional<SigningKey>> held = m_ledger->heldSigningKey();
    const QList<PublicKey> before = m_ledger->publicKeys();
    const QString heldId = held.ok() && held.value() ? held.value()->publicKey().keyId() : QString();
    const bool vouched = std::any_of(before.begin(), before.end(),
                                     [&heldId](const PublicKey &key) { return key.keyId() == heldId; });
    const StoreResult<PublicKey> made = m_ledger->startNewSigningKey();
    if (!made.ok())
        return CtlOutput::fail(made.error());
    const StoreResult<QString> storage = m_ledger->keyStorage();
    if (!storage.ok())
        return CtlOutput::fail(storage.error());
    QJsonArray follows;
    for (const PublicKey &key : before)
        follows.append(key.keyId());
    const QString keyId = made.value().keyId();
    CtlOutput::printJson(
        QJsonObject{{QStringLiteral("ok"), true},
                    {QStringLiteral("key_id"), keyId},
                    {QStringLiteral("follows"), follows},
                    {QStringLiteral("vouched_by"), vouched ? QJsonValue(heldId) : QJsonValue()},
                    {QStringLiteral("storage"), storage.value()}});
    if (before.isEmpty())
        CtlOutput::note(QStringLiteral("receipts are signed with key %1, the directory's first").arg(keyId));
    else if (vouched)
        CtlOutput::note(
            QStringLiteral("receipts are now signed with key %1; key %2 signed for it, so a holder "
                           "of either key trusts the receipts of both")
                .arg(keyId, heldId));
    else
        CtlOutput::note(
            QStringLiteral("receipts are now signed with key %1, which vouches for the %2 listed "
                           "before it; no key held here could sign for it, so a holder of an older "
                           "key reads its receipts as another key's (receipt_chain_other_key)")
                .arg(keyId)
                .arg(before.size()));
    return CtlOutput::Ok;
}
