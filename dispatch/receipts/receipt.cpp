#include "dispatch/receipts/receipt.h"

#include "dispatch/receipts/signedjson.h"

#include <QCryptographicHash>

using namespace Qt::StringLiterals;

namespace {

bool readString(const QJsonObject &json, const QString &name, QString *out, QString *error,
                bool nullable = false)
{
    const QJsonValue value = json.value(name);
    if (value.isString()) {
        *out = value.toString();
        return true;
    }
    if (nullable && value.isNull()) {
        *out = QString();
        return true;
    }
    *error = QStringLiteral("receipt field '%1' is missing or not a string").arg(name);
    return false;
}

} // namespace

QString Receipt::sha256Hex(const QString &text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QJsonObject Receipt::toJson() const
{
    QJsonObject json{
        {u"invocation_id"_s, invocationId},
        {u"trace"_s, trace},
        {u"key"_s, key},
        {u"parent"_s, parent.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(parent)},
        {u"actor"_s, actor},
        {u"runner"_s, runner},
        {u"started_at"_s, startedAt},
        {u"duration_ms"_s, durationMs},
        {u"material"_s, material},
        {u"cost_usd"_s, costUsd},
        {u"status"_s, status},
        {u"fingerprints"_s, QJsonObject{{u"input"_s, inputFingerprint},
                                        {u"output"_s, outputFingerprint},
                                        {u"contract"_s, contractFingerprint}}},
    };
    if (!signature.isEmpty())
        json.insert(u"signature"_s, signature);
    return json;
}

QByteArray Receipt::signedBytes() const
{
    return SignedJson::signedBytes(toJson());
}

std::optional<Receipt> Receipt::fromJson(const QJsonObject &json, QString *error)
{
    Receipt receipt;
    QString scratch;
    error = error ? error : &scratch;
    if (!readString(json, u"invocation_id"_s, &receipt.invocationId, error)
        || !readString(json, u"trace"_s, &receipt.trace, error)
        || !readString(json, u"key"_s, &receipt.key, error)
        || !readString(json, u"parent"_s, &receipt.parent, error, true)
        || !readString(json, u"actor"_s, &receipt.actor, error)
        || !readString(json, u"runner"_s, &receipt.runner, error)
        || !readString(json, u"started_at"_s, &receipt.startedAt, error)
        || !readString(json, u"status"_s, &receipt.status, error))
        return std::nullopt;
    if (!json.value(u"duration_ms"_s).isDouble() || !json.value(u"cost_usd"_s).isDouble()) {
        *error = QStringLiteral("receipt fields 'duration_ms' and 'cost_usd' must be numbers");
        return std::nullopt;
    }
    if (!json.value(u"material"_s).isBool()) {
        *error = QStringLiteral("receipt field 'material' is missing or not a boolean");
        return std::nullopt;
    }
    receipt.durationMs = json.value(u"duration_ms"_s).toInteger();
    receipt.costUsd = json.value(u"cost_usd"_s).toDouble();
    receipt.material = json.value(u"material"_s).toBool();
    const QJsonObject fingerprints = json.value(u"fingerprints"_s).toObject();
    if (!readString(fingerprints, u"input"_s, &receipt.inputFingerprint, error)
        || !readString(fingerprints, u"output"_s, &receipt.outputFingerprint, error)
        || !readString(fingerprints, u"contract"_s, &receipt.contractFingerprint, error)) {
        *error = u"fingerprints: "_s + *error;
        return std::nullopt;
    }
    if (json.contains(u"signature"_s) && !readString(json, u"signature"_s, &receipt.signature, error))
        return std::nullopt;
    return receipt;
}
