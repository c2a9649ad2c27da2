#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

// What a signed document's `signature` member signs: the canonical JSON of the document
// without that member. Receipts, log anchors and chain heads are signed over it and the
// verifier checks against it, so they are all taken here; every stored signature depends
// on these bytes.
class SignedJson final
{
public:
    static QByteArray signedBytes(QJsonObject document);
    // Whether `signatureBase64` signs `message` with the Ed25519 key of `publicKeyPem`: the
    // check of a document that carries its own public key (log anchors, segment seals).
    static bool selfSigned(const QByteArray &publicKeyPem, const QString &signatureBase64,
                           const QByteArray &message);
    // The id of the key in `publicKeyPem`, or empty when it is no Ed25519 public key.
    static QString keyIdOf(const QByteArray &publicKeyPem);
};
