#include "dispatch/receipts/receiptsegmentseal.h"

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signedjson.h"
#include "dispatch/receipts/signingkey.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype kSignatureBytes = 64;
constexpr double kMaxSeq = 9.0e15;

bool isHash(const QString &text)
{
    static const QRegularExpression hex64(u"^[0-9a-f]{64}$"_s);
    return hex64.match(text).hasMatch();
}

bool readSeq(const QJsonValue &value, qint64 min, qint64 *out)
{
    const double number = value.toDouble(-1);
    if (!value.isDouble() || number < double(min) || number > kMaxSeq || number != std::floor(number))
        return false;
    *out = qint64(number);
    return true;
}

std::optional<ReceiptSegmentSeal::Range> readRange(const QJsonValue &value, QString *error)
{
    const QJsonObject json = value.toObject();
    ReceiptSegmentSeal::Range range;
    range.writer = json.value(u"writer"_s).toString();
    range.fromPrevHash = json.value(u"from_prev_hash"_s).toString();
    range.throughHash = json.value(u"through_hash"_s).toString();
    if (!value.isObject() || range.writer.isEmpty() || range.writer.size() > 64) {
        *error = u"'writer' must be a writer id"_s;
        return std::nullopt;
    }
    if (!readSeq(json.value(u"from_seq"_s), 1, &range.fromSeq)
        || !readSeq(json.value(u"through_seq"_s), range.fromSeq, &range.throughSeq)) {
        *error = u"'from_seq' and 'through_seq' must be whole numbers, 1 ≤ from_seq ≤ through_seq"_s;
        return std::nullopt;
    }
    if (!isHash(range.fromPrevHash) || !isHash(range.throughHash)) {
        *error = u"'from_prev_hash' and 'through_hash' must be 64 lowercase hex digits"_s;
        return std::nullopt;
    }
    return range;
}

} // namespace

void ReceiptSegmentSeal::signWith(const SigningKey &key)
{
    publicKeyPem = key.publicKey().pem();
    signature.clear();
    signature = QString::fromLatin1(key.sign(signedBytes()).toBase64());
}

bool ReceiptSegmentSeal::selfSigned() const
{
    return SignedJson::selfSigned(publicKeyPem, signature, signedBytes());
}

QString ReceiptSegmentSeal::keyId() const
{
    return SignedJson::keyIdOf(publicKeyPem);
}

QJsonObject ReceiptSegmentSeal::toJson() const
{
    QJsonArray list;
    for (const Range &range : ranges)
        list.append(QJsonObject{{u"writer"_s, range.writer},
                                {u"from_seq"_s, range.fromSeq},
                                {u"from_prev_hash"_s, range.fromPrevHash},
                                {u"through_seq"_s, range.throughSeq},
                                {u"through_hash"_s, range.throughHash}});
    QJsonObject json{{u"type"_s, kType},
                     {u"made_at"_s, madeAt},
                     {u"before"_s, before},
                     {u"ranges"_s, list},
                     {u"receipt_count"_s, receiptCount},
                     {u"lines_sha256"_s, linesSha256},
                     {u"public_key"_s, QString::fromLatin1(publicKeyPem)}};
    if (!signature.isEmpty())
        json.insert(u"signature"_s, signature);
    return json;
}

QByteArray ReceiptSegmentSeal::signedBytes() const
{
    return SignedJson::signedBytes(toJson());
}

std::optional<ReceiptSegmentSeal> ReceiptSegmentSeal::fromJson(const QJsonObject &json, QString *error)
{
    QString scratch;
    error = error ? error : &scratch;
    if (json.value(u"type"_s).toString() != kType) {
        *error = u"not a receipt segment seal ('type' is not %1)"_s.arg(kType);
        return std::nullopt;
    }
    ReceiptSegmentSeal seal;
    seal.madeAt = json.value(u"made_at"_s).toString();
    seal.before = json.value(u"before"_s).toString();
    seal.linesSha256 = json.value(u"lines_sha256"_s).toString();
    seal.publicKeyPem = json.value(u"public_key"_s).toString().toLatin1();
    seal.signature = json.value(u"signature"_s).toString();
    if (seal.madeAt.isEmpty() || seal.madeAt.size() > 64 || seal.before.isEmpty()
        || seal.before.size() > 64) {
        *error = u"the seal needs 'made_at' and 'before' timestamps"_s;
        return std::nullopt;
    }
    if (!readSeq(json.value(u"receipt_count"_s), 0, &seal.receiptCount)) {
        *error = u"'receipt_count' must be a whole number from 0"_s;
        return std::nullopt;
    }
    if (!isHash(seal.linesSha256)) {
        *error = u"'lines_sha256' must be 64 lowercase hex digits"_s;
        return std::nullopt;
    }
    QString why;
    if (!PublicKey::fromPem(seal.publicKeyPem, &why)) {
        *error = u"'public_key' is not an Ed25519 public key: "_s + why;
        return std::nullopt;
    }
    const QByteArray::FromBase64Result decoded =
        QByteArray::fromBase64Encoding(seal.signature.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.size() != kSignatureBytes) {
        *error = u"'signature' is not the base64 of a %1-byte Ed25519 signature"_s.arg(kSignatureBytes);
        return std::nullopt;
    }
    const QJsonValue ranges = json.value(u"ranges"_s);
    if (!ranges.isArray() || ranges.toArray().size() > kMaxRanges) {
        *error = u"'ranges' must be an array of at most %1"_s.arg(kMaxRanges);
        return std::nullopt;
    }
    const QJsonArray list = ranges.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const std::optional<Range> range = readRange(list.at(i), &why);
        if (!range) {
            *error = u"ranges[%1]: "_s.arg(i) + why;
            return std::nullopt;
        }
        seal.ranges.append(*range);
    }
    return seal;
}
