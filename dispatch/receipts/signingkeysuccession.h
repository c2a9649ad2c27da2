#pragma once

#include "dispatch/receipts/publickey.h"

#include <QList>
#include <QString>

#include <optional>

class SigningKey;

// A new receipt-signing key's signed word on the keys it follows (`signing-key new`), kept
// beside its public half in signing_keys. `log --verify` trusts only the key held here, and
// an attacker who can write the file can list keys of their own, so a listed key counts
// only through a signature: the new key signs the public halves of every key the directory
// listed when it was made (whoever holds the new key then trusts the old chains), and the
// previous key, when it was still held, signs the same statement (whoever holds the old key
// then trusts the new chains). A key lost before its successor was made vouches for
// nothing, and its holder reads the new chains as another key's.
class SigningKeySuccession final
{
public:
    // The column's text is read from a file anyone may have edited: past these it is
    // refused unread.
    static constexpr qsizetype kMaxTextLength = 256 * 1024;
    static constexpr qsizetype kMaxFollowed = 1000;

    // Signed by `next`; also by `previous` when one is given, which vouches only as one of
    // `follows`.
    static SigningKeySuccession make(const SigningKey &next, const QList<PublicKey> &follows,
                                     const SigningKey *previous, const QString &madeAt);
    // None for text that is not a succession of the key `keyId`, or past the caps.
    static std::optional<SigningKeySuccession> fromText(const QString &text, const QString &keyId);
    QString toText() const;

    const PublicKey &key() const { return m_key; }
    const QList<PublicKey> &follows() const { return m_follows; }
    const QString &madeAt() const { return m_madeAt; }
    // The previous key that signed this statement too; empty when none did.
    const QString &vouchedBy() const { return m_vouchedBy; }

    // `trusted` and every key a chain of valid successions links to it, either way.
    static QList<PublicKey> widen(QList<PublicKey> trusted, const QList<SigningKeySuccession> &successions);
    // A key whose valid succession `key` itself signed for: `key` signs no more. One it did
    // not sign for retires nothing, or whoever can write the file could stop any key.
    static std::optional<PublicKey> successorOf(const PublicKey &key,
                                                const QList<SigningKeySuccession> &successions);

private:
    QByteArray signedBytes() const;
    bool signedByNext() const;
    // Whether `previous`, one of the keys followed, signed this statement too.
    bool signedBy(const PublicKey &previous) const;

    PublicKey m_key;
    QList<PublicKey> m_follows;
    QString m_madeAt;
    QString m_signature;
    QString m_vouchedBy;
    QString m_vouch;
};
