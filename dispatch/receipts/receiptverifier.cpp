#include "dispatch/receipts/receiptverifier.h"

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signedjson.h"

using namespace Qt::StringLiterals;

ReceiptVerifier::Result ReceiptVerifier::check(const QJsonObject &receipt, const QList<PublicKey> &keys)
{
    if (keys.isEmpty())
        return Result::NoKey;
    const QJsonValue signatureValue = receipt.value(u"signature"_s);
    if (!signatureValue.isString())
        return Result::Invalid;
    const QByteArray::FromBase64Result signature = QByteArray::fromBase64Encoding(
        signatureValue.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!signature)
        return Result::Invalid;
    const QByteArray message = SignedJson::signedBytes(receipt);
    for (const PublicKey &key : keys) {
        if (key.verify(message, *signature))
            return Result::Valid;
    }
    return Result::Invalid;
}

bool ReceiptVerifier::signatureWellFormed(const QJsonObject &receipt)
{
    constexpr qsizetype signatureBytes = 64;
    const QJsonValue signature = receipt.value(u"signature"_s);
    const QByteArray::FromBase64Result decoded = QByteArray::fromBase64Encoding(
        signature.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    return signature.isString() && decoded && decoded.decoded.size() == signatureBytes;
}

QString ReceiptVerifier::name(Result result)
{
    switch (result) {
    case Result::Valid:
        return u"valid"_s;
    case Result::Invalid:
        return u"invalid"_s;
    case Result::NoKey:
        return u"no key"_s;
    }
    return {};
}
