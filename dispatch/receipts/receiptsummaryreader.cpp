#include "dispatch/receipts/receiptsummaryreader.h"

#include "dispatch/store/sqldirectorystore.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace {

const QString kColumns =
    u"seq, invocation_id, trace, parent, key, actor, runner, started_at, status, duration_ms, material"_s;

// The first seq window a filtered page reads, and the largest it grows to: small enough
// that a page a filter passes often costs one short read, large enough that a rare match
// is found in few reads.
constexpr qint64 kFirstWindow = 50000;
constexpr qint64 kLargestWindow = 2000000;
// The last millisecond an ISO year of four digits can spell: 9999-12-31T23:59:59.999Z.
constexpr qint64 kLastIsoMsecs = 253402300799999;

// A LIKE pattern that finds `part` anywhere, its own % and _ taken literally ('!' escapes).
// It is lowered in SQL, beside the column, so both sides fold alike on each database
// (ASCII letters on SQLite, every letter on PostgreSQL).
QString containing(const QString &part)
{
    QString escaped = part;
    escaped.replace(u'!', u"!!"_s).replace(u'%', u"!%"_s).replace(u'_', u"!_"_s);
    return u'%' + escaped + u'%';
}

// started_at is ISO-8601 text, stamped in one form, so a time bound compares as text.
QString isoOf(qint64 msecs)
{
    return QDateTime::fromMSecsSinceEpoch(std::clamp<qint64>(msecs, 0, kLastIsoMsecs), Qt::UTC)
        .toString(Qt::ISODateWithMs);
}

// How the filter's key and search are looked up: through an index when they name few
// enough keys, or a whole invocation id or trace; else by matching each receipt.
struct Lookups
{
    std::optional<QStringList> keys; // the keys the key filter matches
    bool exactSearch = false; // the search is a whole invocation id or trace

    bool indexed() const { return keys.has_value() || exactSearch; }
};

// The filter as SQL conditions with their values, bound by name.
struct FilterSql
{
    QStringList conditions;
    QList<QPair<QString, QVariant>> values;

    FilterSql(const ReceiptFilter &filter, const Lookups &lookups)
    {
        if (lookups.keys && lookups.keys->isEmpty()) {
            conditions.append(u"1 = 0"_s); // no receipt has a key the filter matches
        } else if (lookups.keys) {
            QStringList names;
            for (qsizetype i = 0; i < lookups.keys->size(); ++i) {
                names.append(u":key%1"_s.arg(i));
                values.append({names.last(), lookups.keys->at(i)});
            }
            conditions.append(u"key IN ("_s + names.join(u", "_s) + u')');
        } else if (!filter.key.isEmpty()) {
            add(u"lower(key) LIKE lower(CAST(:key AS TEXT)) ESCAPE '!'"_s, u":key"_s, containing(filter.key));
        }
        if (!filter.status.isEmpty())
            add(u"status = :status"_s, u":status"_s, filter.status);
        if (!filter.actor.isEmpty())
            add(u"actor = :actor"_s, u":actor"_s, filter.actor);
        if (filter.fromMsecs != std::numeric_limits<qint64>::min())
            add(u"started_at >= :from"_s, u":from"_s, isoOf(filter.fromMsecs));
        if (filter.toMsecs != std::numeric_limits<qint64>::max())
            add(u"started_at <= :to"_s, u":to"_s, isoOf(filter.toMsecs));
        if (lookups.exactSearch) {
            conditions.append(u"(invocation_id = :id OR trace = :trace)"_s);
            values.append({u":id"_s, filter.search});
            values.append({u":trace"_s, filter.search});
        } else if (!filter.search.isEmpty()) {
            conditions.append(u"(lower(invocation_id) LIKE lower(CAST(:id AS TEXT)) ESCAPE '!' "
                              "OR lower(trace) LIKE lower(CAST(:trace AS TEXT)) ESCAPE '!')"_s);
            values.append({u":id"_s, containing(filter.search)});
            values.append({u":trace"_s, containing(filter.search)});
        }
    }
    void add(const QString &condition, const QString &name, const QVariant &value)
    {
        conditions.append(condition);
        values.append({name, value});
    }
    QString andAll() const
    {
        return conditions.isEmpty() ? QString() : u" AND "_s + conditions.join(u" AND "_s);
    }
    void bind(QSqlQuery &query) const
    {
        for (const auto &[name, value] : values)
            query.bindValue(name, value);
    }
};

// More distinct keys than this, and a key filter matches each receipt instead of asking
// the key index: reading them all would cost more than it saves.
constexpr int kMostKeysRead = 5000;
// A key filter that matches more keys than this matches each receipt: the IN list stays short.
constexpr int kMostKeysLookedUp = 500;
// Nor does one that matches more than one key in this many.
constexpr int kFewKeysShare = 8;

// Which of the filter's conditions an index can answer; the driver's words on failure.
QString lookUp(QSqlDatabase &db, const ReceiptFilter &filter, Lookups &lookups)
{
    if (!filter.key.isEmpty()) {
        // A skip scan of the key index: one probe for each distinct key.
        // Each key is matched in SQL, as the LIKE a receipt is matched by.
        QSqlQuery keys(db);
        keys.setForwardOnly(true);
        keys.prepare(
            u"WITH RECURSIVE v(x, n) AS (SELECT min(key), 1 FROM receipts UNION ALL "
            "SELECT (SELECT min(key) FROM receipts WHERE key > v.x), n + 1 FROM v "
            "WHERE v.x IS NOT NULL AND n <= %1) "
            "SELECT x, CASE WHEN lower(x) LIKE lower(CAST(:key AS TEXT)) ESCAPE '!' THEN 1 ELSE 0 END "
            "FROM v WHERE x IS NOT NULL"_s.arg(kMostKeysRead));
        keys.bindValue(u":key"_s, containing(filter.key));
        if (!keys.exec())
            return keys.lastError().text();
        QStringList matching;
        int read = 0;
        while (keys.next()) {
            ++read;
            if (keys.value(1).toInt() == 1)
                matching.append(keys.value(0).toString());
        }
        if (keys.lastError().isValid())
            return keys.lastError().text();
        // Through the index only when few keys match: the receipts of many keys are found
        // soon enough newest first, while an IN list over many keys sorts every one in a window.
        if (read <= kMostKeysRead && matching.size() <= kMostKeysLookedUp
            && matching.size() * kFewKeysShare <= read)
            lookups.keys = matching;
    }
    if (!filter.search.isEmpty()) {
        QSqlQuery exact(db);
        exact.prepare(u"SELECT 1 FROM receipts WHERE invocation_id = :id UNION ALL "
                      "SELECT 1 FROM receipts WHERE trace = :trace LIMIT 1"_s);
        exact.bindValue(u":id"_s, filter.search);
        exact.bindValue(u":trace"_s, filter.search);
        if (!exact.exec())
            return exact.lastError().text();
        lookups.exactSearch = exact.next();
    }
    return {};
}

// Hands each row of a query over kColumns to `sink`; how many it handed, and the last seq.
struct Delivered
{
    int rows = 0;
    qint64 lastSeq = 0;
};

Delivered deliver(QSqlQuery &query, const ReceiptSummaryReader::Sink &sink)
{
    QByteArray text[8];
    auto view = [&text](int i) { return std::string_view(text[i].constData(), std::size_t(text[i].size())); };
    ReceiptSummaryView receipt;
    Delivered delivered;
    while (query.next()) {
        for (int i = 0; i < 8; ++i)
            text[i] = query.value(i + 1).toString().toUtf8();
        receipt.seq = query.value(0).toLongLong();
        receipt.invocationId = view(0);
        receipt.trace = view(1);
        receipt.parent = view(2);
        receipt.key = view(3);
        receipt.actor = view(4);
        receipt.runner = view(5);
        receipt.startedAt = view(6);
        receipt.status = view(7);
        receipt.durationMs = query.value(9).toLongLong();
        receipt.material = query.value(10).toLongLong() != 0;
        sink(receipt);
        ++delivered.rows;
        delivered.lastSeq = receipt.seq;
    }
    return delivered;
}

// A bucket's start from the ISO prefix that names it ("2026-07", "2026-07-26T04").
qint64 bucketStart(const QString &prefix)
{
    static const QString kEpoch = u"1970-01-01T00:00:00.000Z"_s;
    return QDateTime::fromString(prefix + kEpoch.mid(prefix.size()), Qt::ISODateWithMs).toMSecsSinceEpoch();
}

} // namespace

ReceiptSummaryReader::ReceiptSummaryReader(std::shared_ptr<const SqlDirectoryStore> store)
    : m_store(std::move(store))
{}

StoreError ReceiptSummaryReader::read(const std::function<StoreError(QSqlDatabase &)> &work) const
{
    return m_store->withReadConnection(work);
}

StoreError ReceiptSummaryReader::failed(const QSqlQuery &query) const
{
    return failed(query.lastError().text());
}

StoreError ReceiptSummaryReader::failed(const QString &why) const
{
    return StoreError::make(StoreError::Kind::Io,
                            u"cannot read the receipts of %1: %2"_s.arg(m_store->location(), why));
}

StoreResult<ReceiptSummaryReader::Scan> ReceiptSummaryReader::older(const ReceiptFilter &filter,
                                                                    qint64 beforeSeq, int wanted,
                                                                    int budgetMs, const Sink &sink) const
{
    Scan scan;
    const StoreError error = read([&](QSqlDatabase &db) -> StoreError {
        QSqlQuery bounds(db);
        // Two subqueries: SQLite answers a lone min() or max() from the end of an index, but
        // scans the whole table for both in one SELECT.
        if (!bounds.exec(u"SELECT (SELECT min(seq) FROM receipts), (SELECT max(seq) FROM receipts)"_s)
            || !bounds.next())
            return failed(bounds);
        if (bounds.value(0).isNull())
            return StoreError::none(); // no receipt yet
        const qint64 floor = bounds.value(0).toLongLong();
        qint64 high = beforeSeq > 0 ? beforeSeq : bounds.value(1).toLongLong() + 1;
        Lookups lookups;
        if (const QString why = lookUp(db, filter, lookups); !why.isEmpty())
            return failed(why);
        if (lookups.keys && lookups.keys->isEmpty()) {
            scan = {floor, true}; // no receipt has a key the filter matches
            return StoreError::none();
        }
        const FilterSql where(filter, lookups);
        QElapsedTimer clock;
        clock.start();
        int left = wanted;
        // Without a filter every receipt passes, and through an index a read costs what it
        // finds, not what it looks at: one read of `wanted` is the page.
        const bool oneRead = where.conditions.isEmpty()
                             || (lookups.indexed() && where.conditions.size() == 1
                                 && (!lookups.keys || lookups.keys->size() == 1));
        qint64 window = oneRead ? high - floor : kFirstWindow;
        while (high > floor) {
            const qint64 low = std::max(floor, high - window);
            QSqlQuery page(db);
            page.setForwardOnly(true);
            page.prepare(u"SELECT "_s + kColumns + u" FROM receipts WHERE seq >= :low AND seq < :high"_s
                         + where.andAll() + u" ORDER BY seq DESC LIMIT "_s + QString::number(left));
            page.bindValue(u":low"_s, low);
            page.bindValue(u":high"_s, high);
            where.bind(page);
            if (!page.exec())
                return failed(page);
            const Delivered delivered = deliver(page, sink);
            if (page.lastError().isValid())
                return failed(page);
            left -= delivered.rows;
            if (left == 0) {
                scan = {delivered.lastSeq, delivered.lastSeq <= floor};
                return StoreError::none();
            }
            high = low;
            if (clock.elapsed() >= budgetMs)
                break;
            window = std::min(window * 2, kLargestWindow);
        }
        scan = {high, high <= floor};
        return StoreError::none();
    });
    if (error.isError())
        return error;
    return scan;
}

StoreError ReceiptSummaryReader::newer(const ReceiptFilter &filter, qint64 afterSeq, qint64 throughSeq,
                                       int limit, const Sink &sink) const
{
    return read([&](QSqlDatabase &db) -> StoreError {
        Lookups lookups;
        if (const QString why = lookUp(db, filter, lookups); !why.isEmpty())
            return failed(why);
        const FilterSql where(filter, lookups);
        QSqlQuery query(db);
        query.setForwardOnly(true);
        query.prepare(u"SELECT "_s + kColumns + u" FROM receipts WHERE seq > :after AND seq <= :through"_s
                      + where.andAll() + u" ORDER BY seq LIMIT "_s + QString::number(limit));
        query.bindValue(u":after"_s, afterSeq);
        query.bindValue(u":through"_s, throughSeq);
        where.bind(query);
        if (!query.exec())
            return failed(query);
        deliver(query, sink);
        return query.lastError().isValid() ? failed(query) : StoreError::none();
    });
}

StoreError ReceiptSummaryReader::trace(const QString &trace, const Sink &sink) const
{
    return read([&](QSqlDatabase &db) -> StoreError {
        QSqlQuery query(db);
        query.setForwardOnly(true);
        query.prepare(u"SELECT "_s + kColumns + u" FROM receipts WHERE trace = :trace ORDER BY seq LIMIT "_s
                      + QString::number(kMaxTraceReceipts));
        query.bindValue(u":trace"_s, trace);
        if (!query.exec())
            return failed(query);
        deliver(query, sink);
        return query.lastError().isValid() ? failed(query) : StoreError::none();
    });
}

StoreResult<ReceiptSummaryReader::Total> ReceiptSummaryReader::total() const
{
    Total total;
    const StoreError error = read([&](QSqlDatabase &db) -> StoreError {
        QSqlQuery query(db);
        // One statement, so one snapshot on both databases. The count is the one the
        // triggers of migration 0193 keep; without its row (a hand-edited file) the
        // receipts are counted instead. COALESCE evaluates that scan only then.
        if (!query.exec(
                u"SELECT COALESCE((SELECT receipts FROM receipt_count WHERE id = 1), "
                "(SELECT count(*) FROM receipts)), (SELECT max(seq) FROM receipts), "
                "(SELECT count(*) FROM receipt_archives), (SELECT max(started_before) FROM receipt_archives)"_s)
            || !query.next())
            return failed(query);
        total = {query.value(0).toLongLong(), query.value(1).toLongLong(), query.value(2).toLongLong(),
                 query.value(3).toString()};
        return StoreError::none();
    });
    if (error.isError())
        return error;
    return total;
}

StoreResult<qint64> ReceiptSummaryReader::newestSeq() const
{
    qint64 newest = 0;
    const StoreError error = read([&](QSqlDatabase &db) -> StoreError {
        QSqlQuery query(db);
        if (!query.exec(u"SELECT max(seq) FROM receipts"_s) || !query.next())
            return failed(query);
        newest = query.value(0).toLongLong();
        return StoreError::none();
    });
    if (error.isError())
        return error;
    return newest;
}

StoreResult<QStringList> ReceiptSummaryReader::distinct(Column column) const
{
    const QString name = column == Column::Status ? u"status"_s : u"actor"_s;
    QStringList values;
    const StoreError error = read([&](QSqlDatabase &db) -> StoreError {
        // A skip scan: each step asks the index for the next value above the last one.
        QSqlQuery query(db);
        query.setForwardOnly(true);
        if (!query.exec(u"WITH RECURSIVE v(x) AS (SELECT min(%1) FROM receipts UNION ALL "
                        "SELECT (SELECT min(%1) FROM receipts WHERE %1 > v.x) FROM v WHERE v.x IS NOT NULL) "
                        "SELECT x FROM v WHERE x IS NOT NULL LIMIT %2"_s.arg(name)
                            .arg(kMaxChoices)))
            return failed(query);
        while (query.next())
            values.append(query.value(0).toString());
        return query.lastError().isValid() ? failed(query) : StoreError::none();
    });
    if (error.isError())
        return error;
    std::sort(values.begin(), values.end());
    return values;
}

StoreResult<ReceiptSummaryReader::Durations> ReceiptSummaryReader::durations(const QString &key,
                                                                             int maxPoints) const
{
    Durations durations;
    const StoreError error = read([&](QSqlDatabase &db) -> StoreError {
        QSqlQuery span(db);
        span.prepare(u"SELECT count(*) FROM (SELECT 1 FROM receipts WHERE key = :key LIMIT "_s
                     + QString::number(maxPoints + 1) + u") AS firstOnes"_s);
        span.bindValue(u":key"_s, key);
        if (!span.exec() || !span.next())
            return failed(span);
        QSqlQuery query(db);
        query.setForwardOnly(true);
        if (span.value(0).toLongLong() <= maxPoints) {
            query.prepare(u"SELECT started_at, duration_ms FROM receipts WHERE key = :key ORDER BY seq"_s);
        } else {
            // Spans from the key's first and last receipt, both found through its index.
            QSqlQuery ends(db);
            ends.prepare(u"SELECT (SELECT started_at FROM receipts WHERE key = :first ORDER BY seq LIMIT 1), "
                         "(SELECT started_at FROM receipts WHERE key = :last ORDER BY seq DESC LIMIT 1)"_s);
            ends.bindValue(u":first"_s, key);
            ends.bindValue(u":last"_s, key);
            if (!ends.exec() || !ends.next())
                return failed(ends);
            const qint64 spanMs = std::abs(
                QDateTime::fromString(ends.value(1).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch()
                - QDateTime::fromString(ends.value(0).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch());
            // ISO prefixes of a minute, an hour, a day, a month and a year, each with its
            // shortest length: a span of n such lengths touches at most n + 2 of them.
            struct Prefix
            {
                int length;
                qint64 shortestMs;
                Bucket bucket;
            };
            static const Prefix kPrefixes[] = {{16, 60000, Bucket::Minute},
                                               {13, 3600000, Bucket::Hour},
                                               {10, 86400000, Bucket::Day},
                                               {7, 2419200000, Bucket::Month},
                                               {4, 31536000000, Bucket::Year}};
            int prefix = 4;
            durations.bucket = Bucket::Year;
            for (const Prefix &candidate : kPrefixes) {
                if (spanMs / candidate.shortestMs + 2 <= maxPoints) {
                    prefix = candidate.length;
                    durations.bucket = candidate.bucket;
                    break;
                }
            }
            query.prepare(
                u"SELECT substr(started_at, 1, %1) AS bucket, max(duration_ms) FROM receipts "
                "WHERE key = :key GROUP BY substr(started_at, 1, %1) ORDER BY bucket"_s.arg(prefix));
        }
        query.bindValue(u":key"_s, key);
        if (!query.exec())
            return failed(query);
        const bool bucketed = span.value(0).toLongLong() > maxPoints;
        while (query.next()) {
            const QString started = query.value(0).toString();
            const qint64 x = bucketed ? bucketStart(started)
                                      : QDateTime::fromString(started, Qt::ISODateWithMs).toMSecsSinceEpoch();
            durations.points.append(QPointF(double(x), query.value(1).toDouble()));
        }
        return query.lastError().isValid() ? failed(query) : StoreError::none();
    });
    if (error.isError())
        return error;
    return durations;
}
