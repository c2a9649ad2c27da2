#include "dispatch/store/postgreschangefeed.h"

#include "dispatch/store/connectionname.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/outsidewritereport.h"
#include "dispatch/store/qtsqlsummaryscan.h"

#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>

using Kind = StoreError::Kind;

namespace {

const QByteArray kCursorTag = QByteArrayLiteral("pg1");
constexpr qsizetype kMaxCursorBytes = 100;

QByteArray cursorText(qint64 seq, const QByteArray &hash)
{
    return kCursorTag + ':' + QByteArray::number(seq) + ':' + hash;
}

// Digits and lowercase hex only, in their sizes: a cursor is hostile input.
std::optional<std::pair<qint64, QByteArray>> parseCursor(const QByteArray &text)
{
    if (text.size() > kMaxCursorBytes)
        return std::nullopt;
    const QList<QByteArray> parts = text.split(':');
    if (parts.size() != 3 || parts[0] != kCursorTag || parts[1].isEmpty() || parts[1].size() > 18
        || parts[2].size() != 64)
        return std::nullopt;
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    const auto isHex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    if (!std::all_of(parts[1].cbegin(), parts[1].cend(), isDigit)
        || !std::all_of(parts[2].cbegin(), parts[2].cend(), isHex))
        return std::nullopt;
    return std::make_pair(parts[1].toLongLong(), parts[2]);
}

DirectoryChanges unchangedAt(QByteArray cursor)
{
    DirectoryChanges changes;
    changes.cursor = std::move(cursor);
    changes.unchanged = true;
    return changes;
}

// Ends the snapshot whichever way the poll returns.
class Snapshot final
{
public:
    explicit Snapshot(QSqlDatabase &db) : m_query(db)
    {
        m_open = m_query.exec(QStringLiteral("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
    }
    ~Snapshot()
    {
        if (m_open)
            m_query.exec(QStringLiteral("COMMIT"));
    }
    Q_DISABLE_COPY_MOVE(Snapshot)
    bool open() const { return m_open; }

private:
    QSqlQuery m_query;
    bool m_open = false;
};

} // namespace

PostgresChangeFeed::PostgresChangeFeed(QString location,
                                       std::function<StoreError(const QString &)> openConnection)
    : m_location(std::move(location)), m_openConnection(std::move(openConnection))
{}

StoreError PostgresChangeFeed::failure(const QString &what, const QSqlDatabase &db) const
{
    return StoreError::make(Kind::Io,
                            QStringLiteral("%1 of %2: %3").arg(what, m_location, db.lastError().text()));
}

StoreResult<DirectoryChanges> PostgresChangeFeed::changesSince(const QByteArray &cursor) const
{
    const QString name = ConnectionName::fresh(QStringLiteral("pgfeed"));
    StoreResult<DirectoryChanges> result = StoreError::none();
    if (StoreError error = m_openConnection(name); error.isError()) {
        result = std::move(error);
    } else {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        result = poll(db, cursor);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return result;
}

StoreResult<PostgresChangeFeed::Head> PostgresChangeFeed::head(QSqlDatabase &db) const
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT seq, hash FROM event_chain_head WHERE id = 1")))
        return failure(QStringLiteral("cannot read the event log's head"), db);
    if (!query.next())
        return Head{0, EventLog::kGenesisHash.toLatin1()};
    return Head{query.value(0).toLongLong(), query.value(1).toString().toLatin1()};
}

StoreResult<DirectoryChanges> PostgresChangeFeed::poll(QSqlDatabase &db, const QByteArray &cursor) const
{
    const std::optional<std::pair<qint64, QByteArray>> since =
        cursor.isEmpty() ? std::nullopt : parseCursor(cursor);
    {
        const StoreResult<Head> now = head(db);
        if (!now.ok())
            return now.error();
        if (since && since->first == now.value().seq && since->second == now.value().hash) {
            const StoreResult<bool> accounted = outsideWritesAccountedFor(db);
            if (accounted.ok() && accounted.value())
                return unchangedAt(cursor);
        }
    }
    OutsideWriteReport::append(db);
    const Snapshot snapshot(db);
    if (!snapshot.open())
        return failure(QStringLiteral("cannot read the change feed"), db);
    const StoreResult<Head> now = head(db);
    if (!now.ok())
        return now.error();
    DirectoryChanges changes;
    changes.cursor = cursorText(now.value().seq, now.value().hash);
    if (cursor.isEmpty())
        return unchangedAt(changes.cursor);
    StoreResult<bool> delta =
        since ? deltaCanBeTold(db, Head{since->first, since->second}, now.value()) : StoreResult<bool>(false);
    if (!delta.ok())
        return delta.error();
    if (delta.value()) {
        if (since->first == now.value().seq)
            return unchangedAt(changes.cursor);
        if (StoreError error = readChanges(db, since->first, &changes); error.isError())
            return error;
        if (!changes.complete)
            return changes;
    }
    if (StoreError error = readEverything(db, &changes); error.isError())
        return error;
    return changes;
}

StoreResult<bool> PostgresChangeFeed::outsideWritesAccountedFor(QSqlDatabase &db) const
{
    QSqlQuery query(db);
    if (!query.exec(
            QStringLiteral("SELECT (SELECT count(*) FROM pg_trigger WHERE tgrelid = 'directory'::regclass "
                           "AND tgname IN ('directory_outside_write', 'directory_outside_truncate') "
                           "AND tgenabled <> 'D') = 2 AND (SELECT counted = recorded FROM "
                           "directory_outside_writes WHERE id = 1)"))
        || !query.next())
        return failure(QStringLiteral("cannot read the outside-write count"), db);
    return query.value(0).toBool();
}

StoreResult<bool> PostgresChangeFeed::deltaCanBeTold(QSqlDatabase &db, const Head &since,
                                                     const Head &now) const
{
    const StoreResult<bool> accounted = outsideWritesAccountedFor(db);
    if (!accounted.ok() || !accounted.value() || since.seq > now.seq)
        return accounted.ok() ? StoreResult<bool>(false) : accounted;
    QSqlQuery query(db);
    if (since.seq == 0)
        return since.hash == EventLog::kGenesisHash.toLatin1();
    query.prepare(
        QStringLiteral("SELECT hash = ?, NOT EXISTS (SELECT 1 FROM events WHERE seq > ? AND kind = ?) "
                       "FROM events WHERE seq = ?"));
    query.addBindValue(QString::fromLatin1(since.hash));
    query.addBindValue(since.seq);
    query.addBindValue(OutsideWriteReport::kKind);
    query.addBindValue(since.seq);
    if (!query.exec())
        return failure(QStringLiteral("cannot read the event log"), db);
    return query.next() && query.value(0).toBool() && query.value(1).toBool();
}

StoreError PostgresChangeFeed::readChanges(QSqlDatabase &db, qint64 afterSeq, DirectoryChanges *changes) const
{
    QSqlQuery keys(db);
    keys.setForwardOnly(true);
    keys.prepare(QStringLiteral("SELECT DISTINCT key FROM events WHERE seq > ? AND kind = 'DIRECTORY_MUTATE' "
                                "AND key IS NOT NULL LIMIT ?"));
    keys.addBindValue(afterSeq);
    keys.addBindValue(kMaxDeltaKeys + 1);
    if (!keys.exec())
        return failure(QStringLiteral("cannot read the event log"), db);
    QStringList touched;
    while (keys.next())
        touched.append(keys.value(0).toString());
    if (keys.lastError().isValid())
        return failure(QStringLiteral("cannot read the event log"), db);
    if (touched.size() > kMaxDeltaKeys) {
        changes->complete = true;
        return StoreError::none();
    }
    QSqlQuery rows(db);
    rows.setForwardOnly(true);
    rows.prepare(QStringLiteral("SELECT %1 FROM directory WHERE key IN (SELECT key FROM events WHERE seq > ? "
                                "AND kind = 'DIRECTORY_MUTATE')")
                     .arg(QLatin1String(QtSqlSummaryScan::kColumns)));
    rows.addBindValue(afterSeq);
    QSet<QString> present;
    const bool read = rows.exec() && QtSqlSummaryScan::read(rows, [&](const RowSummaryView &view) {
                          changes->changed.append(RowSummary::of(view));
                          present.insert(changes->changed.last().key);
                      });
    if (!read)
        return failure(QStringLiteral("cannot read the changed rows"), db);
    for (const QString &key : touched) {
        if (!present.contains(key))
            changes->removed.append(key);
    }
    return StoreError::none();
}

StoreError PostgresChangeFeed::readEverything(QSqlDatabase &db, DirectoryChanges *changes) const
{
    changes->complete = true;
    changes->changed.clear();
    changes->removed.clear();
    QSqlQuery rows(db);
    rows.setForwardOnly(true);
    const bool read =
        rows.exec(QStringLiteral("SELECT %1 FROM directory").arg(QLatin1String(QtSqlSummaryScan::kColumns)))
        && QtSqlSummaryScan::read(
            rows, [&](const RowSummaryView &view) { changes->changed.append(RowSummary::of(view)); });
    if (!read)
        return failure(QStringLiteral("cannot read the rows"), db);
    return StoreError::none();
}
