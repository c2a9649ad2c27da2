#include "dispatch/call/invocation.h"

QJsonObject InvocationOutcome::toResponse() const
{
    if (!refusal.isEmpty())
        return {{QStringLiteral("ok"), false},
                {QStringLiteral("ran"), false},
                {QStringLiteral("error"), refusal}};
    if (shape) {
        return {{QStringLiteral("ok"), true},
                {QStringLiteral("shape"), true},
                {QStringLiteral("runner"), runner},
                {QStringLiteral("request"), result.shapeRequest},
                {QStringLiteral("notes"), QJsonArray::fromStringList(result.notes)}};
    }
    // A local directory has no public URL; the signed receipt itself travels in the proof
    // instead, so it can be saved and verified offline.
    QJsonObject proof{{QStringLiteral("ok"), receipt.has_value()},
                      {QStringLiteral("invocation_id"), invocationId},
                      {QStringLiteral("public_receipt"), QJsonValue::Null}};
    if (receipt)
        proof.insert(QStringLiteral("receipt"), receipt->toJson());
    else
        proof.insert(QStringLiteral("error"), receiptError);
    return {{QStringLiteral("ok"), material()},
            {QStringLiteral("ran"), true},
            {QStringLiteral("trace"), trace},
            {QStringLiteral("result"), result.output},
            {QStringLiteral("proof"), proof}};
}
