#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/receipt.h"
#include "dispatch/receipts/receiptverifier.h"

#include <QJsonObject>

class DirectoryLedger;

// One stored receipt with what the viewer says about it: whether its signature verifies
// against the directory's keys and whether the row it ran has changed contract since.
struct ReceiptInspection
{
    enum class Drift { Unchanged, Changed, RowGone };

    Receipt receipt;
    QJsonObject json; // as signed, signature included
    ReceiptVerifier::Result signature = ReceiptVerifier::Result::Invalid;
    Drift drift = Drift::Unchanged;
    QString currentContract; // the row's fingerprint now; empty when the row is gone

    static StoreResult<ReceiptInspection> of(const DirectoryLedger &ledger, const QString &invocationId);
};
