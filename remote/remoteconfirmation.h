#pragma once

#include "dispatch/core/storeerror.h"

#include <QJsonObject>
#include <QString>

class ServerConnection;

// SPEC §6 confirm against a server: GET /api/dispatch?confirm=inv_… (keyless).
struct RemoteConfirmation
{
    bool confirmed = false;
    QString status; // PROVEN_MATERIAL_RESULT, RAN_WITHOUT_MATERIAL_RESULT or UNKNOWN_INVOCATION
    // Why a receipt that is there is not confirmed: the server's "reason", or
    // "receipt_mismatch" when the answer or its receipt is for another invocation.
    QString reason;
    QJsonObject answer; // the server's whole answer (ours adds the receipt and its signature)

    static StoreResult<RemoteConfirmation> fetch(const ServerConnection &connection,
                                                 const QString &invocationId);
};
