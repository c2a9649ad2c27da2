#pragma once

#include "dispatch/call/invocationids.h"
#include "dispatch/core/isotime.h"
#include "dispatch/receipts/receipt.h"

// A receipt as the owner's `fn` call of `key` writes it now, with new ids: for the tests
// and benchmarks that issue receipts without running a call.
namespace OwnerReceipt {

inline Receipt fresh(const QString &key, const QString &fingerprinted)
{
    Receipt receipt;
    receipt.invocationId = InvocationIds::newInvocationId();
    receipt.trace = InvocationIds::newTrace();
    receipt.key = key;
    receipt.actor = QStringLiteral("owner:local");
    receipt.runner = QStringLiteral("fn");
    receipt.startedAt = IsoTime::nowUtc();
    receipt.status = Receipt::statusFor(true);
    receipt.material = true;
    receipt.inputFingerprint = receipt.outputFingerprint = receipt.contractFingerprint =
        Receipt::sha256Hex(fingerprinted);
    return receipt;
}

} // namespace OwnerReceipt
