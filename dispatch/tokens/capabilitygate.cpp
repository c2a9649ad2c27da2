#include "dispatch/tokens/capabilitygate.h"

#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/row/row.h"
#include "dispatch/tokens/capabilitytoken.h"

using namespace Qt::StringLiterals;

namespace {

GateVerdict refuse(const QString &reason, int httpStatus = 403)
{
    return GateVerdict{false, reason, httpStatus};
}

} // namespace

GateVerdict CapabilityGate::check(const CapabilityToken &token, const CapabilityCall &call, const Row &row,
                                  const QDateTime &nowUtc)
{
    if (GateVerdict alone = checkToken(token, nowUtc); !alone.allowed)
        return alone;
    if (call.audience != token.audience)
        return refuse(u"audience_mismatch"_s);
    if (token.ownerGate && !call.ownerPresent)
        return refuse(u"owner_gate"_s);

    // A row other than the one named would let the category test judge the wrong row.
    const bool categoryAllowed = !row.category.isEmpty() && token.allowedCategories.contains(row.category);
    if (row.key != call.key || !(token.allowedKeys.contains(call.key) || categoryAllowed))
        return refuse(u"scope:"_s + call.key);

    if (!token.pinnedContract.isEmpty()) {
        const QString current = ContractFingerprint::of(row);
        if (current != token.pinnedContract)
            return refuse(u"contract_changed:%1!=%2"_s.arg(token.pinnedContract, current), 409);
    }
    // Anything but an explicit "high" is treated as low, so a damaged ceiling fails closed.
    if (row.sensitive && token.riskCeiling != "high"_L1)
        return refuse(u"risk_ceiling:low<row:high"_s);
    if (token.fixedBody && call.body != *token.fixedBody)
        return refuse(u"fixed_body"_s);
    if (token.payloadCeiling) {
        const qint64 bytes = call.body.toUtf8().size();
        if (bytes > *token.payloadCeiling)
            return refuse(u"payload_ceiling:%1>%2"_s.arg(bytes).arg(*token.payloadCeiling), 413);
    }
    return GateVerdict{true, QString(), 200};
}

GateVerdict CapabilityGate::checkToken(const CapabilityToken &token, const QDateTime &nowUtc)
{
    if (token.isRevoked())
        return refuse(u"revoked"_s);
    if (token.isExpired(nowUtc))
        return refuse(u"expired"_s);
    return GateVerdict{true, QString(), 200};
}

GateVerdict CapabilityGate::unknownToken()
{
    return refuse(u"unknown_token"_s, 401);
}
