#include "models/receiptinspection.h"

#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/directorystore.h"

StoreResult<ReceiptInspection> ReceiptInspection::of(const DirectoryLedger &ledger,
                                                     const QString &invocationId)
{
    StoreResult<Receipt> found = ledger.receipts().find(invocationId);
    if (!found.ok())
        return found.error();
    ReceiptInspection inspection;
    inspection.receipt = std::move(found.value());
    inspection.json = inspection.receipt.toJson();
    inspection.signature = ReceiptVerifier::check(inspection.json, ledger.publicKeys());
    const StoreResult<Row> row = ledger.store()->row(inspection.receipt.key);
    if (!row.ok()) {
        if (row.error().kind != StoreError::Kind::NotFound)
            return row.error();
        inspection.drift = Drift::RowGone;
        return inspection;
    }
    inspection.currentContract = ContractFingerprint::of(row.value());
    inspection.drift = inspection.currentContract == inspection.receipt.contractFingerprint ? Drift::Unchanged
                                                                                            : Drift::Changed;
    return inspection;
}
