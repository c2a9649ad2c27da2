#include "dispatch/tokens/capabilitytoken.h"

#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/row/row.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QRegularExpression>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace {

StoreError invalid(const QString &message)
{
    return StoreError::make(StoreError::Kind::Invalid, message);
}

std::optional<QDateTime> parseIso(const QString &text)
{
    QDateTime when = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!when.isValid())
        return std::nullopt;
    // An owner who types a time without a zone means the same instant on every machine.
    if (when.timeSpec() == Qt::LocalTime)
        when.setTimeSpec(Qt::UTC);
    return when.toUTC();
}

bool holdsControl(const QString &text)
{
    return std::any_of(text.cbegin(), text.cend(),
                       [](QChar c) { return c.category() == QChar::Other_Control; });
}

// Over its cap, or with a control character: a newline in an audience could never pass an
// HTTP header, and one in a label would rewrite the owner's terminal when listed.
StoreError checkText(const QString &field, const QString &text)
{
    if (text.toUtf8().size() > CapabilityToken::kMaxNameBytes)
        return invalid(u"%1: longer than %2 bytes"_s.arg(field).arg(CapabilityToken::kMaxNameBytes));
    if (holdsControl(text))
        return invalid(u"%1: holds a control character"_s.arg(field));
    return StoreError::none();
}

StoreError checkEntries(const QString &field, const QStringList &entries)
{
    if (entries.size() > CapabilityToken::kMaxNames)
        return invalid(u"%1: more than %2 names"_s.arg(field).arg(CapabilityToken::kMaxNames));
    for (const QString &entry : entries) {
        if (entry.isEmpty() || entry.trimmed() != entry || entry.contains(u','))
            return invalid(u"%1: '%2' is not a name (no commas, no surrounding spaces)"_s.arg(field, entry));
        if (StoreError error = checkText(field, entry); error.isError())
            return error;
    }
    return StoreError::none();
}

QJsonValue nullWhenEmpty(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

StoreResult<QString> stringMember(const QJsonObject &object, const QString &name)
{
    const QJsonValue value = object.value(name);
    if (value.isUndefined() || value.isNull())
        return QString();
    if (!value.isString())
        return invalid(u"%1: must be a string"_s.arg(name));
    return value.toString();
}

StoreResult<QStringList> listMember(const QJsonObject &object, const QString &name)
{
    const QJsonValue value = object.value(name);
    if (value.isUndefined() || value.isNull())
        return QStringList();
    if (!value.isArray())
        return invalid(u"%1: must be an array of strings"_s.arg(name));
    QStringList list;
    for (const QJsonValue entry : value.toArray()) {
        if (!entry.isString())
            return invalid(u"%1: must be an array of strings"_s.arg(name));
        list.append(entry.toString());
    }
    return list;
}

} // namespace

QString CapabilityToken::newId()
{
    static constexpr char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    QString id = u"tok_"_s;
    for (int i = 0; i < 8; ++i)
        id.append(QLatin1Char(digits[QRandomGenerator::system()->bounded(36)]));
    return id;
}

StoreError CapabilityToken::validate() const
{
    static const QRegularExpression fingerprint(u"^[0-9a-f]{64}$"_s);
    if (audience.trimmed().isEmpty())
        return invalid(u"audience: required"_s);
    for (const auto &[field, text] : {std::pair{u"audience"_s, audience}, std::pair{u"label"_s, label}}) {
        if (StoreError error = checkText(field, text); error.isError())
            return error;
    }
    if (allowedKeys.isEmpty() && allowedCategories.isEmpty())
        return invalid(u"scope: at least one key or category"_s);
    if (StoreError error = checkEntries(u"allowed_keys"_s, allowedKeys); error.isError())
        return error;
    if (StoreError error = checkEntries(u"allowed_categories"_s, allowedCategories); error.isError())
        return error;
    if (riskCeiling != "low"_L1 && riskCeiling != "high"_L1)
        return invalid(u"risk_ceiling: must be low or high, not '%1'"_s.arg(riskCeiling));
    if (payloadCeiling && *payloadCeiling < 0)
        return invalid(u"payload_ceiling: must be 0 or more bytes"_s);
    if (fixedBody && fixedBody->toUtf8().size() > kMaxFixedBodyBytes)
        return invalid(u"fixed_body: longer than 1 MiB"_s);
    if (fixedBody && payloadCeiling && fixedBody->toUtf8().size() > *payloadCeiling)
        return invalid(u"fixed_body: longer than payload_ceiling; the token could never be used"_s);
    if (!pinnedContract.isEmpty() && !fingerprint.match(pinnedContract).hasMatch())
        return invalid(u"pinned_contract: must be a contract fingerprint (64 lowercase hex)"_s);
    if (!expiresAt.isEmpty() && !parseIso(expiresAt))
        return invalid(u"expires_at: '%1' is not an ISO-8601 time"_s.arg(expiresAt));
    return StoreError::none();
}

bool CapabilityToken::isExpired(const QDateTime &nowUtc) const
{
    if (expiresAt.isEmpty())
        return false;
    const std::optional<QDateTime> when = parseIso(expiresAt);
    return !when || nowUtc >= *when;
}

QString CapabilityToken::status(const QDateTime &nowUtc) const
{
    if (isRevoked())
        return u"revoked"_s;
    return isExpired(nowUtc) ? u"expired"_s : u"active"_s;
}

QString CapabilityToken::scopeText() const
{
    QStringList parts;
    if (!allowedKeys.isEmpty())
        parts.append(u"keys "_s + allowedKeys.join(u", "_s));
    if (!allowedCategories.isEmpty())
        parts.append(u"categories "_s + allowedCategories.join(u", "_s));
    return parts.join(u"; "_s);
}

QStringList CapabilityToken::splitList(const QString &text)
{
    QStringList list;
    for (const QString &part : text.split(u',', Qt::SkipEmptyParts)) {
        const QString name = part.trimmed();
        if (!name.isEmpty() && !list.contains(name))
            list.append(name);
    }
    return list;
}

StoreError CapabilityToken::pinToRow(const Row &row)
{
    if (!allowedCategories.isEmpty() || (!allowedKeys.isEmpty() && allowedKeys != QStringList{row.key}))
        return invalid(
            u"pinned_contract: a pinned token reaches only %1; its scope must be that key alone"_s.arg(
                row.key));
    allowedKeys = QStringList{row.key};
    pinnedContract = ContractFingerprint::of(row);
    return StoreError::none();
}

StoreResult<QString> CapabilityToken::resolveExpiry(const QString &text, const QDateTime &nowUtc)
{
    static const QRegularExpression relative(u"^(\\d{1,6})([mhdw])$"_s);
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return QString();
    if (const QRegularExpressionMatch match = relative.match(trimmed); match.hasMatch()) {
        const qint64 count = match.captured(1).toLongLong();
        const QChar unit = match.captured(2).at(0);
        const qint64 minutes = unit == u'm' ? 1 : unit == u'h' ? 60 : unit == u'd' ? 24 * 60 : 7 * 24 * 60;
        return nowUtc.toUTC().addSecs(count * minutes * 60).toString(Qt::ISODateWithMs);
    }
    if (const std::optional<QDateTime> when = parseIso(trimmed))
        return when->toString(Qt::ISODateWithMs);
    return invalid(
        u"expires_at: '%1' is neither ISO-8601 nor a count like 90m, 12h, 30d or 2w"_s.arg(trimmed));
}

QJsonObject CapabilityToken::toJson() const
{
    return QJsonObject{
        {u"id"_s, id},
        {u"label"_s, label},
        {u"audience"_s, audience},
        {u"owner_gate"_s, ownerGate},
        {u"allowed_keys"_s, QJsonArray::fromStringList(allowedKeys)},
        {u"allowed_categories"_s, QJsonArray::fromStringList(allowedCategories)},
        {u"pinned_contract"_s, nullWhenEmpty(pinnedContract)},
        {u"risk_ceiling"_s, riskCeiling},
        {u"fixed_body"_s, fixedBody ? QJsonValue(*fixedBody) : QJsonValue(QJsonValue::Null)},
        {u"payload_ceiling"_s, payloadCeiling ? QJsonValue(*payloadCeiling) : QJsonValue(QJsonValue::Null)},
        {u"expires_at"_s, nullWhenEmpty(expiresAt)},
        {u"revoked_at"_s, nullWhenEmpty(revokedAt)},
        {u"created_at"_s, nullWhenEmpty(createdAt)},
    };
}

StoreResult<CapabilityToken> CapabilityToken::fromJson(const QJsonObject &object, const QDateTime &nowUtc)
{
    const QStringList known = CapabilityToken().toJson().keys();
    for (auto it = object.begin(); it != object.end(); ++it)
        if (!known.contains(it.key()))
            return invalid(u"%1: not a token field"_s.arg(it.key()));

    CapabilityToken token;
    for (const auto &[name, slot] : {std::pair{u"id"_s, &token.id},
                                     {u"label"_s, &token.label},
                                     {u"audience"_s, &token.audience},
                                     {u"pinned_contract"_s, &token.pinnedContract},
                                     {u"revoked_at"_s, &token.revokedAt},
                                     {u"created_at"_s, &token.createdAt}}) {
        StoreResult<QString> text = stringMember(object, name);
        if (!text.ok())
            return text.error();
        *slot = text.value();
    }
    for (const auto &[name, slot] : {std::pair{u"allowed_keys"_s, &token.allowedKeys},
                                     {u"allowed_categories"_s, &token.allowedCategories}}) {
        StoreResult<QStringList> list = listMember(object, name);
        if (!list.ok())
            return list.error();
        *slot = list.value();
    }

    const QJsonValue ownerGate = object.value(u"owner_gate"_s);
    if (!ownerGate.isUndefined() && !ownerGate.isBool())
        return invalid(u"owner_gate: must be true or false"_s);
    token.ownerGate = ownerGate.toBool();

    if (object.contains(u"risk_ceiling"_s)) {
        StoreResult<QString> ceiling = stringMember(object, u"risk_ceiling"_s);
        if (!ceiling.ok())
            return ceiling.error();
        token.riskCeiling = ceiling.value();
    }

    const QJsonValue fixedBody = object.value(u"fixed_body"_s);
    if (fixedBody.isString())
        token.fixedBody = fixedBody.toString();
    else if (!fixedBody.isUndefined() && !fixedBody.isNull())
        return invalid(u"fixed_body: must be a string or null"_s);

    const QJsonValue ceiling = object.value(u"payload_ceiling"_s);
    if (ceiling.isDouble() && ceiling.toDouble() == double(ceiling.toInteger()))
        token.payloadCeiling = ceiling.toInteger();
    else if (!ceiling.isUndefined() && !ceiling.isNull())
        return invalid(u"payload_ceiling: must be a whole number of bytes or null"_s);

    StoreResult<QString> expiry = stringMember(object, u"expires_at"_s);
    if (!expiry.ok())
        return expiry.error();
    StoreResult<QString> resolved = resolveExpiry(expiry.value(), nowUtc);
    if (!resolved.ok())
        return resolved.error();
    token.expiresAt = resolved.value();

    if (StoreError error = token.validate(); error.isError())
        return error;
    return token;
}
