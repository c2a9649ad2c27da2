#include "dispatch/receipts/signedjson.h"

#include "dispatch/json/canonicaljson.h"
#include "dispatch/receipts/publickey.h"

#include <optional>

QByteArray SignedJson::signedBytes(QJsonObject document)
{
    document.remove(QStringLiteral("signature"));
    return CanonicalJson::serialize(document);
}

bool SignedJson::selfSigned(const QByteArray &publicKeyPem, const QString &signatureBase64,
                            const QByteArray &message)
{
    const std::optional<PublicKey> key = PublicKey::fromPem(publicKeyPem, nullptr);
    const QByteArray::FromBase64Result decoded =
        QByteArray::fromBase64Encoding(signatureBase64.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    return key && decoded && key->verify(message, *decoded);
}

QString SignedJson::keyIdOf(const QByteArray &publicKeyPem)
{
    const std::optional<PublicKey> key = PublicKey::fromPem(publicKeyPem, nullptr);
    return key ? key->keyId() : QString();
}
