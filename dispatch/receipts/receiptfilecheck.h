#pragma once

#include "dispatch/receipts/receiptverifier.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

class PublicKey;

// Checks an exported receipt file offline (SPEC §6): its signature against the given
// public keys and, when this directory holds a receipt of the same invocation, which
// fields the file changed.
class ReceiptFileCheck final
{
public:
    struct Outcome
    {
        QString error; // the file is not a JSON object; nothing else is set
        QJsonObject receipt;
        ReceiptVerifier::Result result = ReceiptVerifier::Result::Invalid;
        // Every field of the file, nested ones dotted ("fingerprints.contract"), sorted.
        QStringList fields;
        // Fields whose value is not the stored copy's (or that only one of them has);
        // empty when there was no stored copy to compare with.
        QStringList differing;
        bool comparedWithStored = false;
    };

    static Outcome check(const QByteArray &fileBytes, const QList<PublicKey> &keys,
                         const std::optional<QJsonObject> &stored);
    // Field name → value, nested objects flattened to dotted names.
    static QList<std::pair<QString, QJsonValue>> flatten(const QJsonObject &receipt);
};
