#include "dispatch/receipts/receiptloganchor.h"

#include "dispatch/core/isotime.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signedjson.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/store/eventlog.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype kMaxChains = 1'000'000;
constexpr qsizetype kSignatureBytes = 64;

QJsonObject positionJson(const ReceiptLogAnchor::Position &position)
{
    QJsonObject json{{u"seq"_s, position.seq}, {u"hash"_s, position.hash}};
    if (!position.writer.isEmpty())
        json.insert(u"writer"_s, position.writer);
    return json;
}

bool readPosition(const QJsonValue &value, bool withWriter, ReceiptLogAnchor::Position *out, QString *error)
{
    static const QRegularExpression hex64(u"^[0-9a-f]{64}$"_s);
    const QJsonObject json = value.toObject();
    const QJsonValue seq = json.value(u"seq"_s);
    const double number = seq.toDouble(-1);
    if (!value.isObject() || !seq.isDouble() || number < 0 || number > 9.0e15
        || number != std::floor(number)) {
        *error = u"'seq' must be a whole number from 0"_s;
        return false;
    }
    out->seq = qint64(number);
    out->hash = json.value(u"hash"_s).toString();
    if (!hex64.match(out->hash).hasMatch()) {
        *error = u"'hash' must be 64 lowercase hex digits"_s;
        return false;
    }
    if (withWriter) {
        out->writer = json.value(u"writer"_s).toString();
        if (out->writer.isEmpty() || out->writer.size() > 64) {
            *error = u"'writer' must be a writer id"_s;
            return false;
        }
    }
    return true;
}

} // namespace

StoreResult<ReceiptLogAnchor> ReceiptLogAnchor::make(const QSqlDatabase &db, const SigningKey &key)
{
    ReceiptLogAnchor anchor;
    anchor.madeAt = IsoTime::nowUtc();
    anchor.events.hash = EventLog::kGenesisHash;
    QSqlQuery events(db);
    if (!events.exec(u"SELECT seq, hash FROM event_chain_head WHERE id = 1"_s))
        return StoreError::make(StoreError::Kind::Io,
                                u"cannot read the event log's head: "_s + events.lastError().text());
    if (events.next())
        anchor.events = Position{QString(), events.value(0).toLongLong(), events.value(1).toString()};
    QSqlQuery heads(db);
    heads.setForwardOnly(true);
    if (!heads.exec(u"SELECT writer, seq, hash FROM receipt_chain_heads ORDER BY writer"_s))
        return StoreError::make(StoreError::Kind::Io,
                                u"cannot read the receipt chains: "_s + heads.lastError().text());
    while (heads.next())
        anchor.receiptChains.append(
            {heads.value(0).toString(), heads.value(1).toLongLong(), heads.value(2).toString()});
    anchor.publicKeyPem = key.publicKey().pem();
    anchor.signature = QString::fromLatin1(key.sign(anchor.signedBytes()).toBase64());
    return anchor;
}

QJsonObject ReceiptLogAnchor::toJson() const
{
    QJsonArray chains;
    for (const Position &chain : receiptChains)
        chains.append(positionJson(chain));
    QJsonObject json{{u"type"_s, kType},
                     {u"made_at"_s, madeAt},
                     {u"events"_s, positionJson(events)},
                     {u"receipt_chains"_s, chains},
                     {u"public_key"_s, QString::fromLatin1(publicKeyPem)}};
    if (!signature.isEmpty())
        json.insert(u"signature"_s, signature);
    return json;
}

QByteArray ReceiptLogAnchor::signedBytes() const
{
    return SignedJson::signedBytes(toJson());
}

std::optional<ReceiptLogAnchor> ReceiptLogAnchor::fromJson(const QJsonObject &json, QString *error)
{
    QString scratch;
    error = error ? error : &scratch;
    ReceiptLogAnchor anchor;
    if (json.value(u"type"_s).toString() != kType) {
        *error = u"not a Capdesk log anchor ('type' is not %1)"_s.arg(kType);
        return std::nullopt;
    }
    anchor.madeAt = json.value(u"made_at"_s).toString();
    anchor.publicKeyPem = json.value(u"public_key"_s).toString().toLatin1();
    anchor.signature = json.value(u"signature"_s).toString();
    if (anchor.madeAt.isEmpty() || anchor.publicKeyPem.isEmpty() || anchor.signature.isEmpty()) {
        *error = u"the anchor needs 'made_at', 'public_key' and 'signature'"_s;
        return std::nullopt;
    }
    QString why;
    if (!PublicKey::fromPem(anchor.publicKeyPem, &why)) {
        *error = u"'public_key' is not an Ed25519 public key: "_s + why;
        return std::nullopt;
    }
    const QByteArray::FromBase64Result decoded =
        QByteArray::fromBase64Encoding(anchor.signature.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.size() != kSignatureBytes) {
        *error = u"'signature' is not the base64 of a %1-byte Ed25519 signature"_s.arg(kSignatureBytes);
        return std::nullopt;
    }
    if (!readPosition(json.value(u"events"_s), false, &anchor.events, &why)) {
        *error = u"events: "_s + why;
        return std::nullopt;
    }
    const QJsonArray chains = json.value(u"receipt_chains"_s).toArray();
    if (!json.value(u"receipt_chains"_s).isArray() || chains.size() > kMaxChains) {
        *error = u"'receipt_chains' must be an array of at most %1"_s.arg(kMaxChains);
        return std::nullopt;
    }
    for (qsizetype i = 0; i < chains.size(); ++i) {
        Position chain;
        if (!readPosition(chains.at(i), true, &chain, &why)) {
            *error = u"receipt_chains[%1]: "_s.arg(i) + why;
            return std::nullopt;
        }
        anchor.receiptChains.append(chain);
    }
    return anchor;
}

bool ReceiptLogAnchor::selfSigned() const
{
    return SignedJson::selfSigned(publicKeyPem, signature, signedBytes());
}

QString ReceiptLogAnchor::keyId() const
{
    return SignedJson::keyIdOf(publicKeyPem);
}
