#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

class PublicKey;
class SigningKey;

// The signed last line of a receipt segment file (`capdeskctl receipts archive`), kept in
// the directory as well: which stretch of each writer's receipt chain the file holds, the
// hash each stretch starts after and ends in, how many receipts, and the SHA-256 of every
// byte of the file before this line. The directory deletes only what a seal covers, and
// the audit picks each chain up at the hash its seal names, so archived receipts still
// count in the chain; the file verifies alone against the seal's public key.
struct ReceiptSegmentSeal
{
    struct Range
    {
        QString writer;
        qint64 fromSeq = 0;
        QString fromPrevHash; // the link before fromSeq, or 64 '0' from the chain's start
        qint64 throughSeq = 0;
        QString throughHash;
    };

    static inline const QString kType = QStringLiteral("capdesk.receipt_segment_seal");
    static constexpr qsizetype kMaxRanges = 100'000;

    QString madeAt;
    QString before; // receipts that started before this instant
    QList<Range> ranges;
    qint64 receiptCount = 0;
    QString linesSha256; // of the file's bytes before the seal line
    QByteArray publicKeyPem;
    QString signature;

    void signWith(const SigningKey &key);
    // The signature verifies with the public key the seal carries.
    bool selfSigned() const;
    // That key's id, or empty when it is no Ed25519 public key.
    QString keyId() const;
    QJsonObject toJson() const;
    QByteArray signedBytes() const;
    // Reads what toJson() writes; `error` names the first member that is wrong.
    static std::optional<ReceiptSegmentSeal> fromJson(const QJsonObject &json, QString *error);
};
