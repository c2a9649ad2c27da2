#include "dispatch/store/eventlog.h"

#include "dispatch/core/isotime.h"
#include "dispatch/json/canonicaljson.h"
#include "dispatch/row/rowcanonicaljson.h"
#include "dispatch/store/eventrowwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <openssl/evp.h>

#include <algorithm>
#include <iterator>

namespace {

using Kind = StoreError::Kind;

const QString kColumns =
    QStringLiteral("seq, kind, action, key, actor, at, before_json, after_json, detail, prev_hash, hash");

StoreError sqlError(const QString &what, const QSqlError &error)
{
    return StoreError::make(Kind::Io, QStringLiteral("%1: %2").arg(what, error.text()));
}

// SHA-256 of the canonical JSON of {seq, kind, action, key, actor, at, before, after,
// detail, prev_hash}, fed to the digest in parts: the members in CanonicalJson's order
// (sorted by key), with before, after and detail already in canonical form. The stored
// columns hold that form, so verify() hashes what is on disk without parsing it back, and
// the rows are never copied into one buffer. OpenSSL's SHA-256 is several times
// QCryptographicHash's, which shows over 100,000 events.
QByteArray hashOf(qint64 seq, const QString &kind, const QString &action, const QString &key,
                  const QString &actor, const QString &at, const QByteArray &before, const QByteArray &after,
                  const QByteArray &detail, const QString &prevHash)
{
    // Fetched once and kept for the process: OpenSSL 3 looks the algorithm up on every
    // init given EVP_sha256().
    static const EVP_MD *const sha256 = EVP_MD_fetch(nullptr, "SHA2-256", nullptr);
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    bool ok = sha256 && context && EVP_DigestInit_ex(context.get(), sha256, nullptr);
    QByteArray part;
    part.reserve(256);
    auto feed = [&](const QByteArray &bytes) {
        ok = ok && EVP_DigestUpdate(context.get(), bytes.constData(), std::size_t(bytes.size()));
    };
    auto member = [&](const char *name, const QString &text) {
        part += name;
        if (text.isNull())
            part += "null";
        else
            CanonicalJson::appendString(text, &part);
    };
    member("{\"action\":", action);
    member(",\"actor\":", actor);
    part += ",\"after\":";
    feed(part);
    feed(after);
    part.clear();
    member(",\"at\":", at);
    part += ",\"before\":";
    feed(part);
    feed(before);
    feed(QByteArrayLiteral(",\"detail\":"));
    feed(detail);
    part.clear();
    member(",\"key\":", key);
    member(",\"kind\":", kind);
    member(",\"prev_hash\":", prevHash);
    part += ",\"seq\":" + QByteArray::number(seq) + '}';
    feed(part);

    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    ok = ok && EVP_DigestFinal_ex(context.get(), digest, &length);
    if (!ok)
        return QByteArray(); // never equal to a stored hash, so a failure reads as a break
    return QByteArray(reinterpret_cast<const char *>(digest), int(length)).toHex();
}

QByteArray canonicalRow(const Row *row)
{
    return row ? RowCanonicalJson::serialize(*row) : QByteArrayLiteral("null");
}

QByteArray canonicalColumn(const QVariant &column)
{
    return column.isNull() ? QByteArrayLiteral("null") : column.toString().toUtf8();
}

QJsonValue parseColumn(const QVariant &column)
{
    if (column.isNull())
        return QJsonValue::Null;
    // Wrapped in an array so any JSON value parses, not only objects and arrays.
    const QString text = column.toString();
    const QJsonDocument document = QJsonDocument::fromJson('[' + text.toUtf8() + ']');
    return document.isArray() ? document.array().at(0) : QJsonValue(text);
}

QString nullableText(const QVariant &column)
{
    return column.isNull() ? QString() : column.toString();
}

} // namespace

const QString EventLog::kGenesisHash = QString(64, u'0');

QJsonObject EventLog::Verification::toJson() const
{
    return {{QStringLiteral("intact"), intact},
            {QStringLiteral("checked"), checked},
            {QStringLiteral("first_broken_seq"),
             intact ? QJsonValue(QJsonValue::Null) : QJsonValue(firstBrokenSeq)},
            {QStringLiteral("problem"), intact ? QJsonValue(QJsonValue::Null) : QJsonValue(problem)}};
}

EventLog::EventLog(const QSqlDatabase &db, std::shared_ptr<const Clock> clock)
    : m_db(db), m_clock(std::move(clock))
{}

EventLog::~EventLog() = default;

StoreResult<std::optional<EventLog::Head>> EventLog::readHead() const
{
    QSqlQuery query(m_db);
    if (!query.exec(QStringLiteral("SELECT seq, hash FROM event_chain_head WHERE id = 1")))
        return sqlError(QStringLiteral("cannot read the event log's head"), query.lastError());
    if (!query.next())
        return std::optional<Head>();
    return std::optional<Head>(Head{query.value(0).toLongLong(), query.value(1).toString()});
}

StoreError EventLog::prepareAppend()
{
    StoreResult<std::unique_ptr<EventRowWriter>> writer = EventRowWriter::forConnection(m_db);
    if (!writer.ok())
        return writer.error();
    const StoreResult<std::optional<Head>> head = readHead();
    if (!head.ok())
        return head.error();
    m_writer = std::move(writer.value());
    m_head = head.value().value_or(Head{0, kGenesisHash});
    return StoreError::none();
}

StoreError EventLog::append(LogEvent event)
{
    const QByteArray before = CanonicalJson::serialize(event.before);
    const QByteArray after = CanonicalJson::serialize(event.after);
    return appendEncoded(std::move(event), before, after);
}

StoreError EventLog::appendRowChange(const QString &action, const QString &actor, const Row *before,
                                     const Row *after, const QString &at, const QJsonObject &detail)
{
    LogEvent event;
    event.kind = QStringLiteral("DIRECTORY_MUTATE");
    event.action = action;
    event.key = after ? after->key : before ? before->key : QString();
    event.actor = actor;
    event.at = at;
    event.detail = detail;
    return appendEncoded(std::move(event), canonicalRow(before), canonicalRow(after));
}

StoreError EventLog::appendEncoded(LogEvent event, const QByteArray &before, const QByteArray &after)
{
    if (!m_head) {
        StoreError error = prepareAppend();
        if (error.isError())
            return error;
    }
    // Outside the write lock another writer could append between the head read and the
    // insert, forking the chain.
    if (!m_writer->holdsWriteLock())
        return StoreError::make(
            Kind::Io, QStringLiteral("the event log is appended to only inside a write transaction"));
    if (event.at.isEmpty())
        event.at = IsoTime::nowUtc(*m_clock);
    event.seq = m_head->seq + 1;
    event.prevHash = m_head->hash;
    EncodedEvent encoded;
    encoded.seq = event.seq;
    encoded.kind = event.kind.toUtf8();
    encoded.action = event.action.toUtf8();
    encoded.key = event.key.toUtf8();
    encoded.keyIsNull = event.key.isNull();
    encoded.actor = event.actor.toUtf8();
    encoded.at = event.at.toUtf8();
    encoded.before = before;
    encoded.after = after;
    encoded.detail = CanonicalJson::serialize(event.detail);
    encoded.prevHash = event.prevHash.toUtf8();
    encoded.hash = hashOf(event.seq, event.kind, event.action, event.key, event.actor, event.at, before,
                          after, encoded.detail, event.prevHash);
    if (StoreError error = m_writer->insert(encoded); error.isError())
        return error;
    if (StoreError error = m_writer->moveHead(event.seq, encoded.hash); error.isError())
        return error;
    m_head = Head{event.seq, QString::fromLatin1(encoded.hash)};
    return StoreError::none();
}

StoreResult<QList<LogEvent>> EventLog::events(const QString &key, qint64 limit) const
{
    QSqlQuery query(m_db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT %1 FROM events %2 ORDER BY seq DESC%3")
                      .arg(kColumns, key.isEmpty() ? QString() : QStringLiteral("WHERE key = ?"),
                           limit < 0 ? QString() : QStringLiteral(" LIMIT ?")));
    if (!key.isEmpty())
        query.addBindValue(key);
    if (limit >= 0)
        query.addBindValue(limit);
    if (!query.exec())
        return sqlError(QStringLiteral("cannot read the event log"), query.lastError());
    QList<LogEvent> events;
    while (query.next()) {
        LogEvent event;
        event.seq = query.value(0).toLongLong();
        event.kind = query.value(1).toString();
        event.action = query.value(2).toString();
        event.key = nullableText(query.value(3));
        event.actor = query.value(4).toString();
        event.at = query.value(5).toString();
        event.before = parseColumn(query.value(6));
        event.after = parseColumn(query.value(7));
        event.detail = parseColumn(query.value(8)).toObject();
        event.prevHash = query.value(9).toString();
        event.hash = query.value(10).toString();
        events.append(event);
    }
    if (query.lastError().isValid())
        return sqlError(QStringLiteral("cannot read all of the event log"), query.lastError());
    return events;
}

StoreResult<EventLog::Verification> EventLog::verify() const
{
    QSqlQuery query(m_db);
    query.setForwardOnly(true);
    if (!query.exec(QStringLiteral("SELECT %1 FROM events ORDER BY seq").arg(kColumns)))
        return sqlError(QStringLiteral("cannot read the event log"), query.lastError());

    Verification result;
    auto broken = [&result](qint64 seq, const QString &problem) {
        result.intact = false;
        result.firstBrokenSeq = seq;
        result.problem = problem;
    };
    qint64 lastSeq = 0;
    QString lastHash = kGenesisHash;
    while (query.next()) {
        const qint64 seq = query.value(0).toLongLong();
        ++result.checked;
        if (seq != lastSeq + 1) {
            broken(lastSeq + 1, QStringLiteral("event #%1 is missing: the log goes from #%2 to #%3")
                                    .arg(lastSeq + 1)
                                    .arg(lastSeq)
                                    .arg(seq));
            break;
        }
        const QString prevHash = query.value(9).toString();
        const QString hash = query.value(10).toString();
        const QByteArray recomputed =
            hashOf(seq, query.value(1).toString(), query.value(2).toString(), nullableText(query.value(3)),
                   query.value(4).toString(), query.value(5).toString(), canonicalColumn(query.value(6)),
                   canonicalColumn(query.value(7)), canonicalColumn(query.value(8)), prevHash);
        if (hash != QLatin1String(recomputed)) {
            broken(seq,
                   QStringLiteral("event #%1 was altered: its hash does not match its content").arg(seq));
            break;
        }
        if (prevHash != lastHash) {
            broken(seq, QStringLiteral(
                            "event #%1 does not follow event #%2: its prev_hash is not that event's hash")
                            .arg(seq)
                            .arg(lastSeq));
            break;
        }
        lastSeq = seq;
        lastHash = hash;
    }
    if (query.lastError().isValid())
        return sqlError(QStringLiteral("cannot read all of the event log"), query.lastError());
    if (!result.intact)
        return result;

    // The walk cannot see events missing after the last one it found; the head can.
    const StoreResult<std::optional<Head>> head = readHead();
    if (!head.ok())
        return head.error();
    const Head last{lastSeq, lastHash};
    const Head recorded = head.value().value_or(Head{0, kGenesisHash});
    if (recorded.seq > last.seq)
        broken(last.seq + 1,
               QStringLiteral("event #%1 is missing: the chain head records #%2 but the log ends at #%3")
                   .arg(last.seq + 1)
                   .arg(recorded.seq)
                   .arg(last.seq));
    else if (recorded.seq < last.seq)
        broken(recorded.seq + 1,
               QStringLiteral("event #%1 was added outside the log: the chain head ends at #%2")
                   .arg(recorded.seq + 1)
                   .arg(recorded.seq));
    else if (recorded.hash != last.hash)
        broken(last.seq,
               QStringLiteral("event #%1 was altered: it does not match the chain head").arg(last.seq));
    return result;
}

QJsonObject EventLog::toJson(const LogEvent &event)
{
    return {
        {QStringLiteral("seq"), event.seq},
        {QStringLiteral("kind"), event.kind},
        {QStringLiteral("action"), event.action},
        {QStringLiteral("key"), event.key.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(event.key)},
        {QStringLiteral("actor"), event.actor},
        {QStringLiteral("at"), event.at},
        {QStringLiteral("before"), event.before},
        {QStringLiteral("after"), event.after},
        {QStringLiteral("detail"), event.detail},
        {QStringLiteral("prev_hash"), event.prevHash},
        {QStringLiteral("hash"), event.hash}};
}
