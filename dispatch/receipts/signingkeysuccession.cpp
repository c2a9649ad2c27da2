#include "dispatch/receipts/signingkeysuccession.h"

#include "dispatch/receipts/signedjson.h"
#include "dispatch/receipts/signingkey.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMultiHash>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

const QString kType = u"capdesk.signing_key_succession"_s;

bool signedWith(const PublicKey &key, const QString &signatureBase64, const QByteArray &message)
{
    const QByteArray::FromBase64Result decoded =
        QByteArray::fromBase64Encoding(signatureBase64.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    return decoded && key.verify(message, *decoded);
}

QJsonObject describe(const PublicKey &key)
{
    return {{u"key_id"_s, key.keyId()}, {u"public_key"_s, QString::fromLatin1(key.pem())}};
}

std::optional<PublicKey> described(const QJsonValue &value)
{
    const QJsonObject object = value.toObject();
    std::optional<PublicKey> key =
        PublicKey::fromPem(object.value(u"public_key"_s).toString().toLatin1(), nullptr);
    if (!key || key->keyId() != object.value(u"key_id"_s).toString())
        return std::nullopt;
    return key;
}

} // namespace

SigningKeySuccession SigningKeySuccession::make(const SigningKey &next, const QList<PublicKey> &follows,
                                                const SigningKey *previous, const QString &madeAt)
{
    SigningKeySuccession succession;
    succession.m_key = next.publicKey();
    succession.m_follows = follows;
    succession.m_madeAt = madeAt;
    const QByteArray message = succession.signedBytes();
    succession.m_signature = QString::fromLatin1(next.sign(message).toBase64());
    if (previous) {
        succession.m_vouchedBy = previous->publicKey().keyId();
        succession.m_vouch = QString::fromLatin1(previous->sign(message).toBase64());
    }
    return succession;
}

QByteArray SigningKeySuccession::signedBytes() const
{
    QJsonArray follows;
    for (const PublicKey &key : m_follows)
        follows.append(describe(key));
    QJsonObject statement = describe(m_key);
    statement.insert(u"type"_s, kType);
    statement.insert(u"follows"_s, follows);
    statement.insert(u"made_at"_s, m_madeAt);
    return SignedJson::signedBytes(statement);
}

QString SigningKeySuccession::toText() const
{
    QJsonObject text = QJsonDocument::fromJson(signedBytes()).object();
    text.insert(u"signature"_s, m_signature);
    if (!m_vouchedBy.isEmpty())
        text.insert(u"vouched_by"_s, QJsonObject{{u"key_id"_s, m_vouchedBy}, {u"signature"_s, m_vouch}});
    return QString::fromUtf8(QJsonDocument(text).toJson(QJsonDocument::Compact));
}

std::optional<SigningKeySuccession> SigningKeySuccession::fromText(const QString &text, const QString &keyId)
{
    if (text.size() > kMaxTextLength)
        return std::nullopt;
    const QJsonObject object = QJsonDocument::fromJson(text.toUtf8()).object();
    const QJsonArray follows = object.value(u"follows"_s).toArray();
    if (object.value(u"type"_s).toString() != kType || follows.size() > kMaxFollowed)
        return std::nullopt;
    SigningKeySuccession succession;
    const std::optional<PublicKey> key = described(object);
    if (!key || key->keyId() != keyId)
        return std::nullopt;
    succession.m_key = *key;
    for (const auto &value : follows) {
        const std::optional<PublicKey> followed = described(value);
        if (!followed)
            return std::nullopt;
        succession.m_follows.append(*followed);
    }
    succession.m_madeAt = object.value(u"made_at"_s).toString();
    succession.m_signature = object.value(u"signature"_s).toString();
    const QJsonObject vouch = object.value(u"vouched_by"_s).toObject();
    succession.m_vouchedBy = vouch.value(u"key_id"_s).toString();
    succession.m_vouch = vouch.value(u"signature"_s).toString();
    return succession;
}

bool SigningKeySuccession::signedByNext() const
{
    return signedWith(m_key, m_signature, signedBytes());
}

bool SigningKeySuccession::signedBy(const PublicKey &previous) const
{
    const bool followed = std::any_of(m_follows.begin(), m_follows.end(), [&previous](const PublicKey &key) {
        return key.pem() == previous.pem();
    });
    return followed && previous.keyId() == m_vouchedBy && signedWith(previous, m_vouch, signedBytes());
}

QList<PublicKey> SigningKeySuccession::widen(QList<PublicKey> trusted,
                                             const QList<SigningKeySuccession> &successions)
{
    // Keys are told apart by their whole public half, not by the 64-bit id a key could be
    // ground to share.
    QMultiHash<QByteArray, const SigningKeySuccession *> byKey;
    QMultiHash<QString, const SigningKeySuccession *> byVoucher;
    for (const SigningKeySuccession &succession : successions) {
        byKey.insert(succession.m_key.pem(), &succession);
        if (!succession.m_vouchedBy.isEmpty())
            byVoucher.insert(succession.m_vouchedBy, &succession);
    }
    QSet<QByteArray> seen;
    for (const PublicKey &key : std::as_const(trusted))
        seen.insert(key.pem());
    // Each key is trusted once and each succession looked at once per way, so a file
    // listing many keys costs a signature check or two per key.
    for (qsizetype next = 0; next < trusted.size(); ++next) {
        const PublicKey key = trusted.at(next);
        QList<PublicKey> reached;
        for (const SigningKeySuccession *succession : byKey.values(key.pem())) {
            if (succession->signedByNext())
                reached += succession->m_follows;
        }
        for (const SigningKeySuccession *succession : byVoucher.values(key.keyId())) {
            if (succession->signedBy(key))
                reached.append(succession->m_key);
        }
        for (const PublicKey &one : std::as_const(reached)) {
            if (!seen.contains(one.pem())) {
                seen.insert(one.pem());
                trusted.append(one);
            }
        }
    }
    return trusted;
}

std::optional<PublicKey> SigningKeySuccession::successorOf(const PublicKey &key,
                                                           const QList<SigningKeySuccession> &successions)
{
    for (const SigningKeySuccession &succession : successions) {
        if (succession.m_key.pem() != key.pem() && succession.signedBy(key) && succession.signedByNext())
            return succession.m_key;
    }
    return std::nullopt;
}
