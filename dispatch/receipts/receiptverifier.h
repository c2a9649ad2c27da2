#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

class PublicKey;

// Checks a receipt's Ed25519 signature over the canonical JSON of the receipt exactly as
// given, minus `signature`: a field added, removed or changed anywhere fails, not only a
// change to the fields this build knows.
class ReceiptVerifier final
{
public:
    enum class Result { Valid, Invalid, NoKey };

    // Valid when any of `keys` verifies it (a directory may have rotated its key).
    static Result check(const QJsonObject &receipt, const QList<PublicKey> &keys);
    // Whether `signature` is a string holding the base64 of a 64-byte Ed25519 signature,
    // whatever it signs.
    static bool signatureWellFormed(const QJsonObject &receipt);
    // "valid", "invalid", "no key"
    static QString name(Result result);
};
