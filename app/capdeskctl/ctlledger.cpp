#include "app/capdeskctl/ctlledger.h"

#include "app/capdeskctl/ctlarguments.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptloganchor.h"

#include <algorithm>

namespace CtlLedger {

std::shared_ptr<DirectoryLedger> open(std::shared_ptr<SqlDirectoryStore> store, const CtlArguments &args)
{
    const QString keyFile = args.value(QStringLiteral("--signing-key"));
    return std::make_shared<DirectoryLedger>(std::move(store),
                                             keyFile.isEmpty() ? DirectoryLedger::KeyPlacement::KeychainOrFile
                                                               : DirectoryLedger::KeyPlacement::FileOnly,
                                             CapabilityGateRefusalCounter::kDefaultIntervalMs, keyFile);
}

QList<PublicKey> trustedKeys(DirectoryLedger &ledger, const ReceiptLogAnchor *anchor)
{
    const StoreResult<qint64> chains = ledger.receipts().chainCount();
    // A log wiped with its chains still has the anchor's key to be checked against.
    if (!chains.ok() || (chains.value() == 0 && !anchor))
        return {};
    const QList<PublicKey> listed = ledger.publicKeys();
    // A check must not make a key: one made now would have signed nothing here.
    const StoreResult<std::optional<SigningKey>> key = ledger.heldSigningKey();
    if (!key.ok() || !key.value())
        return {};
    const PublicKey held = key.value()->publicKey();
    // An anchor kept outside the file vouches for the key that signed it as well as the
    // file's list does; a key made just now cannot match it.
    const bool known = std::any_of(listed.begin(), listed.end(),
                                   [&held](const PublicKey &one) { return one.keyId() == held.keyId(); })
                       || (anchor && anchor->selfSigned() && anchor->keyId() == held.keyId());
    return known ? QList<PublicKey>{held} : QList<PublicKey>{};
}

} // namespace CtlLedger
