#include "dispatch/receipts/receiptchainhead.h"

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signedjson.h"
#include "dispatch/receipts/signingkey.h"

using namespace Qt::StringLiterals;

QByteArray ReceiptChainHead::signedBytes() const
{
    QJsonObject json = toJson();
    json.insert(u"type"_s, u"capdesk.receipt_chain_head"_s);
    return SignedJson::signedBytes(json);
}

void ReceiptChainHead::signWith(const SigningKey &key)
{
    signature = QString::fromLatin1(key.sign(signedBytes()).toBase64());
}

bool ReceiptChainHead::verifiedBy(const QList<PublicKey> &keys) const
{
    const QByteArray::FromBase64Result decoded =
        QByteArray::fromBase64Encoding(signature.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return false;
    const QByteArray message = signedBytes();
    for (const PublicKey &key : keys) {
        if (key.verify(message, *decoded))
            return true;
    }
    return false;
}

QJsonObject ReceiptChainHead::toJson() const
{
    return {{u"writer"_s, writer},
            {u"seq"_s, seq},
            {u"hash"_s, hash},
            {u"events_seq"_s, eventsSeq},
            {u"events_hash"_s, eventsHash},
            {u"signed_at"_s, signedAt},
            {u"signature"_s, signature}};
}
