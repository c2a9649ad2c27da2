#pragma once

#include "dispatch/core/storeerror.h"

#include <QJsonObject>
#include <QList>
#include <QSqlDatabase>
#include <QString>

#include <optional>

class SigningKey;

// A signed copy of where the event log and every receipt chain end, to keep outside the
// directory (`capdeskctl log --anchor`). Checked later (`log --verify --anchor FILE`), it
// shows a log cut back past it or rewritten before it, even by someone who holds the
// signing key, as long as the anchor itself was out of their reach. It carries its
// public key, so the key the directory signs with now can be compared with it.
struct ReceiptLogAnchor
{
    struct Position
    {
        QString writer; // empty for the event log
        qint64 seq = 0;
        QString hash;
    };

    static constexpr qint64 kMaxBytes = 16 * 1024 * 1024;
    static inline const QString kType = QStringLiteral("capdesk.log_anchor");

    QString madeAt;
    Position events;
    QList<Position> receiptChains;
    QByteArray publicKeyPem;
    QString signature;

    // The anchor of the log as `db` holds it now, signed with `key`.
    static StoreResult<ReceiptLogAnchor> make(const QSqlDatabase &db, const SigningKey &key);
    // Reads an anchor as toJson() writes it; `error` names the first member that is wrong.
    static std::optional<ReceiptLogAnchor> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
    QByteArray signedBytes() const;
    // Its signature verifies with the public key it carries.
    bool selfSigned() const;
    // That public key's id, or empty when it is not an Ed25519 public key.
    QString keyId() const;
};
