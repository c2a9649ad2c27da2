#pragma once

#include "app/capdeskctl/ctlarguments.h"
#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/publickey.h"

#include <QList>
#include <QString>

#include <memory>

class DirectoryLedger;

// `receipts [--key K] [--limit N]`, `receipts archive --before DATE --out FILE`,
// `confirm INV_ID [--archive SEGMENT]` and
// `verify-receipt FILE [--public-key PEM] [--invocation INV_ID]` (SPEC §6, §11).
class CtlReceiptCommands final
{
public:
    CtlReceiptCommands(const CtlArguments &args, std::shared_ptr<DirectoryLedger> ledger);

    int receipts();
    int confirm();
    int verifyReceipt();

private:
    struct TrustedKeys
    {
        QList<PublicKey> keys;
        QString source;
    };

    int archive();
    // verify-receipt of a receipt segment file: the whole file, and one receipt of it.
    int verifySegment(const QString &path);
    // --public-key's, else the directory's.
    StoreResult<TrustedKeys> trustedKeys() const;

    const CtlArguments &m_args;
    std::shared_ptr<DirectoryLedger> m_ledger;
};
