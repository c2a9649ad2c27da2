#include "app/capdeskctl/ctlledger.h"

#include "app/capdeskctl/ctlarguments.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptloganchor.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace CtlLedger {

std::shared_ptr<DirectoryLedger> open(std::shared_ptr<SqlDirectoryStore> store, const CtlArguments &args)
{
    const QString keyFile = args.value(QStringLiteral("--signing-key"));
    return std::make_shared<DirectoryLedger>(std::move(store),
                                             keyFile.isEmpty() ? DirectoryLedger::KeyPlacement::KeychainOrFile
                                                               : DirectoryLedger::KeyPlacement::FileOnly,
                                             CapabilityGateRefusalCounter::kDefaultIntervalMs, keyFile);
}

QList<PublicKey> trustedKeys(DirectoryLedger &ledger, const ReceiptLogAnchor *anchor, QString *why)
{
    auto untrusted = [why](const QString &reason) {
        if (why)
            *why = reason;
        return QList<PublicKey>{};
    };
    const StoreResult<qint64> chains = ledger.receipts().chainCount();
    if (!chains.ok())
        return untrusted(chains.error().message);
    // A log wiped with its chains still has the anchor's key to be checked against.
    if (chains.value() == 0 && !anchor)
        return {};
    const QList<PublicKey> listed = ledger.publicKeys();
    QStringList listedIds;
    for (const PublicKey &one : listed)
        listedIds.append(one.keyId());
    // A check must not make a key: one made now would have signed nothing here.
    const StoreResult<std::optional<SigningKey>> key = ledger.heldSigningKey();
    if (!key.ok())
        return untrusted(key.error().message);
    if (!key.value())
        return untrusted(u"this machine holds none of this directory's keys (%1; looked in %2)"_s.arg(
            listedIds.join(u", "_s), ledger.signingKeyPlaces()));
    const PublicKey held = key.value()->publicKey();
    // An anchor kept outside the file vouches for the key that signed it as well as the
    // file's list does; a key made just now cannot match it.
    const bool known = listedIds.contains(held.keyId())
                       || (anchor && anchor->selfSigned() && anchor->keyId() == held.keyId());
    if (!known)
        return untrusted(u"the key held here, %1, is not one of this directory's keys (%2)"_s.arg(
            held.keyId(), listedIds.join(u", "_s)));
    return {held};
}

} // namespace CtlLedger
