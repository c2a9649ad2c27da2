#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

class PublicKey;
class SigningKey;

// The newest link of one writer's receipt chain, signed with the receipt key, together
// with the event log's head when it was signed: a forged or rolled-forward head fails its
// signature, and a wiped or truncated event log falls short of what a head attests. The
// signed bytes carry a `type` member no receipt has, so a receipt's signature can never
// pass for a head's, nor the reverse.
struct ReceiptChainHead
{
    QString writer;
    qint64 seq = 0;
    QString hash;
    qint64 eventsSeq = 0;
    QString eventsHash;
    QString signedAt;
    QString signature; // base64 Ed25519 over signedBytes()

    QByteArray signedBytes() const;
    void signWith(const SigningKey &key);
    bool verifiedBy(const QList<PublicKey> &keys) const;
    // Every member, signature included, as `log --verify` reports a head.
    QJsonObject toJson() const;
};
