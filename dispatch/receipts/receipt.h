#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

// The engine-written record of one real invocation (SPEC §6). Its canonical JSON without
// `signature` is what the engine's Ed25519 key signs, so anyone holding the public key can
// check a receipt offline, field for field.
struct Receipt
{
    static inline const QString provenMaterial = QStringLiteral("PROVEN_MATERIAL_RESULT");
    static inline const QString ranWithoutMaterial = QStringLiteral("RAN_WITHOUT_MATERIAL_RESULT");

    QString invocationId;
    QString trace;
    QString key;
    QString parent; // the enclosing invocation's id; null at the top level
    QString actor;
    QString runner;
    QString startedAt;
    qint64 durationMs = 0;
    bool material = false;
    double costUsd = 0;
    QString status;
    QString inputFingerprint; // SHA-256 hex of the body's UTF-8 bytes
    QString outputFingerprint; // SHA-256 hex of the output's UTF-8 bytes
    QString contractFingerprint; // ContractFingerprint of the row that ran
    QString signature; // base64 Ed25519 signature of signedBytes()

    static QString statusFor(bool material) { return material ? provenMaterial : ranWithoutMaterial; }
    static QString sha256Hex(const QString &text);

    // The receipt as SPEC §6 shows it; `signature` is left out while it is empty.
    QJsonObject toJson() const;
    // Canonical JSON of toJson() without `signature`: the signed bytes.
    QByteArray signedBytes() const;
    // Reads a receipt as toJson() writes it; every SPEC §6 field must be present with its
    // JSON type, else `error` names the first one that is not.
    static std::optional<Receipt> fromJson(const QJsonObject &json, QString *error);
};
