#include "dispatch/tokens/capabilitytokenstore.h"

#include "dispatch/core/isotime.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/logevent.h"
#include "dispatch/store/sqldialect.h"
#include "dispatch/store/writetransaction.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>

#include <array>

using namespace Qt::StringLiterals;

namespace {

const QString kColumns =
    u"id, label, audience, owner_gate, allowed_keys, allowed_categories, pinned_contract, "
    u"risk_ceiling, fixed_body, payload_ceiling, expires_at, revoked_at, created_at"_s;

StoreError sqlError(const QString &what, const QSqlQuery &query)
{
    return StoreError::make(StoreError::Kind::Io, u"%1: %2"_s.arg(what, query.lastError().text()));
}

QVariant nullWhenEmpty(const QString &text)
{
    return text.isEmpty() ? QVariant() : QVariant(text);
}

// The columns are NOT NULL; an empty list is "", which QStringList::join gives as null.
QVariant listColumn(const QStringList &list)
{
    return QVariant(list.isEmpty() ? u""_s : list.join(u','));
}

CapabilityToken tokenFrom(const QSqlQuery &query)
{
    CapabilityToken token;
    token.id = query.value(0).toString();
    token.label = query.value(1).toString();
    token.audience = query.value(2).toString();
    token.ownerGate = query.value(3).toInt() != 0;
    token.allowedKeys = CapabilityToken::splitList(query.value(4).toString());
    token.allowedCategories = CapabilityToken::splitList(query.value(5).toString());
    token.pinnedContract = query.value(6).toString();
    token.riskCeiling = query.value(7).toString();
    if (!query.isNull(8))
        token.fixedBody = query.value(8).toString();
    if (!query.isNull(9))
        token.payloadCeiling = query.value(9).toLongLong();
    token.expiresAt = query.value(10).toString();
    token.revokedAt = query.value(11).toString();
    token.createdAt = query.value(12).toString();
    return token;
}

// A fixed body is named by its size alone: it is up to 1 MiB of a caller's data, which
// the hash-chained log would keep forever, and a hash of a short or guessable body (a
// place, an account number) gives it away to whoever tries the candidates.
QJsonValue fixedBodyDetail(const std::optional<QString> &body)
{
    if (!body)
        return QJsonValue::Null;
    return QJsonObject{{u"bytes"_s, qint64(body->toUtf8().size())}};
}

LogEvent tokenEvent(const QString &kind, const QString &action, const QString &actor, QJsonObject detail)
{
    LogEvent event;
    event.kind = kind;
    event.action = action;
    event.actor = actor;
    event.detail = std::move(detail);
    return event;
}

} // namespace

CapabilityTokenStore::CapabilityTokenStore(const QSqlDatabase &db) : m_db(db) {}

QString CapabilityTokenStore::hashOf(const QString &value)
{
    return QString::fromLatin1(QCryptographicHash::hash(value.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString CapabilityTokenStore::newValue()
{
    std::array<quint32, 8> words{}; // 32 bytes
    QRandomGenerator::system()->fillRange(words.data(), qsizetype(words.size()));
    const QByteArray bytes(reinterpret_cast<const char *>(words.data()), qsizetype(sizeof(words)));
    return u"cdt_"_s
           + QString::fromLatin1(
               bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

StoreResult<QString> CapabilityTokenStore::freshId() const
{
    // 36^8 ids make a clash rare, not impossible; the id is the table's key.
    QSqlQuery query(m_db);
    query.prepare(u"SELECT 1 FROM capability_tokens WHERE id = ?"_s);
    for (;;) {
        const QString id = CapabilityToken::newId();
        query.addBindValue(id);
        if (!query.exec())
            return sqlError(u"cannot read the token ids"_s, query);
        if (!query.next())
            return id;
    }
}

StoreResult<CapabilityTokenStore::Minted> CapabilityTokenStore::create(CapabilityToken spec,
                                                                       const QString &actor)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    spec.revokedAt.clear();
    spec.createdAt = now.toString(Qt::ISODateWithMs);
    if (StoreError error = spec.validate(); error.isError())
        return error;
    if (spec.isExpired(now))
        return StoreError::make(StoreError::Kind::Invalid,
                                u"expires_at: %1 has already passed"_s.arg(spec.expiresAt));

    WriteTransaction transaction(m_db);
    if (transaction.startError().isError())
        return transaction.startError();
    StoreResult<QString> id = freshId();
    if (!id.ok())
        return id.error();
    spec.id = id.value();
    const QString value = newValue();

    QSqlQuery insert(m_db);
    insert.prepare(
        u"INSERT INTO capability_tokens (token_hash, %1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s
            .arg(kColumns));
    for (const QVariant &bound :
         {QVariant(hashOf(value)), QVariant(spec.id), QVariant(spec.label.isNull() ? u""_s : spec.label),
          QVariant(spec.audience), QVariant(spec.ownerGate ? 1 : 0), listColumn(spec.allowedKeys),
          listColumn(spec.allowedCategories), nullWhenEmpty(spec.pinnedContract), QVariant(spec.riskCeiling),
          spec.fixedBody ? QVariant(*spec.fixedBody) : QVariant(),
          spec.payloadCeiling ? QVariant(*spec.payloadCeiling) : QVariant(), nullWhenEmpty(spec.expiresAt),
          QVariant(), QVariant(spec.createdAt)})
        insert.addBindValue(bound);
    if (!insert.exec())
        return sqlError(u"cannot store the token"_s, insert);

    const QJsonObject detail{
        {u"token_id"_s, spec.id},
        {u"label"_s, spec.label},
        {u"audience"_s, spec.audience},
        {u"scope"_s, QJsonObject{{u"keys"_s, QJsonArray::fromStringList(spec.allowedKeys)},
                                 {u"categories"_s, QJsonArray::fromStringList(spec.allowedCategories)}}},
        {u"risk_ceiling"_s, spec.riskCeiling},
        {u"pinned"_s,
         spec.pinnedContract.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(spec.pinnedContract)},
        {u"owner_gate"_s, spec.ownerGate},
        {u"expires_at"_s,
         spec.expiresAt.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(spec.expiresAt)},
        {u"fixed_body"_s, fixedBodyDetail(spec.fixedBody)},
        {u"payload_ceiling"_s,
         spec.payloadCeiling ? QJsonValue(*spec.payloadCeiling) : QJsonValue(QJsonValue::Null)},
    };
    if (StoreError error = EventLog(m_db).append(tokenEvent(u"TOKEN_CREATED"_s, u"create"_s, actor, detail));
        error.isError())
        return error;
    if (StoreError error = transaction.commit(); error.isError())
        return error;
    return Minted{std::move(spec), value};
}

StoreResult<QList<CapabilityToken>> CapabilityTokenStore::list() const
{
    QSqlQuery query(m_db);
    // Tokens made within one millisecond keep the order they were made in, not the order
    // of their random ids.
    if (!query.exec(u"SELECT %1 FROM capability_tokens ORDER BY created_at, %2"_s.arg(
            kColumns, SqlDialect::of(m_db).insertionOrder)))
        return sqlError(u"cannot list tokens"_s, query);
    QList<CapabilityToken> tokens;
    while (query.next())
        tokens.append(tokenFrom(query));
    return tokens;
}

StoreError CapabilityTokenStore::revoke(const QString &id, const QString &actor)
{
    WriteTransaction transaction(m_db);
    if (transaction.startError().isError())
        return transaction.startError();
    QSqlQuery find(m_db);
    find.prepare(u"SELECT revoked_at FROM capability_tokens WHERE id = ?"_s);
    find.addBindValue(id);
    if (!find.exec())
        return sqlError(u"cannot read token %1"_s.arg(id), find);
    if (!find.next())
        return StoreError::make(StoreError::Kind::NotFound, u"no token %1"_s.arg(id));
    if (!find.isNull(0))
        return StoreError::make(StoreError::Kind::Invalid, u"%1 is already revoked"_s.arg(id));

    QSqlQuery update(m_db);
    update.prepare(u"UPDATE capability_tokens SET revoked_at = ? WHERE id = ?"_s);
    update.addBindValue(IsoTime::nowUtc());
    update.addBindValue(id);
    if (!update.exec())
        return sqlError(u"cannot revoke %1"_s.arg(id), update);
    if (StoreError error = EventLog(m_db).append(
            tokenEvent(u"TOKEN_REVOKED"_s, u"revoke"_s, actor, QJsonObject{{u"token_id"_s, id}}));
        error.isError())
        return error;
    return transaction.commit();
}

StoreResult<CapabilityToken> CapabilityTokenStore::findByValue(const QString &value) const
{
    QSqlQuery query(m_db);
    query.prepare(u"SELECT %1 FROM capability_tokens WHERE token_hash = ?"_s.arg(kColumns));
    query.addBindValue(hashOf(value));
    if (!query.exec())
        return sqlError(u"cannot look the token up"_s, query);
    if (!query.next())
        return StoreError::make(StoreError::Kind::NotFound, u"unknown token"_s);
    return tokenFrom(query);
}
