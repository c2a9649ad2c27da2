#include "invocation.h"

QJsonObject InvocationOutcome::toResponse() const
{
    if (!refusal.isEmpty())
        return {{QStringLiteral("ok"), false}, {QStringLiteral("ran"), false}, {QStringLiteral("error"), refusal}};
    if (shape) {
        return {{QStringLiteral("ok"), true},
                {QStringLiteral("shape"), true},
                {QStringLiteral("runner"), runner},
                {QStringLiteral("request"), result.shapeRequest},
                {QStringLiteral("notes"), QJsonArray::fromStringList(result.notes)}};
    }
    // Receipts arrive with their own issue; until then the proof names the invocation id
    // and says plainly that no signed receipt backs it.
    const QJsonObject proof{{QStringLiteral("ok"), false},
                            {QStringLiteral("invocation_id"), invocationId},
                            {QStringLiteral("public_receipt"), QJsonValue::Null}};
    return {{QStringLiteral("ok"), material()},
            {QStringLiteral("ran"), true},
            {QStringLiteral("trace"), trace},
            {QStringLiteral("result"), result.output},
            {QStringLiteral("proof"), proof}};
}
