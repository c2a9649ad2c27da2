#include "dispatch/store/sqlitechangefeed.h"

#include "dispatch/store/connectionname.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/outsidewritereport.h"
#include "dispatch/store/sqlitesummaryscan.h"

#include <QRandomGenerator>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

#include <sqlite3.h>

#include <algorithm>

using Kind = StoreError::Kind;

namespace {

const QByteArray kCursorTag = QByteArrayLiteral("sqlite1");
constexpr qsizetype kMaxCursorBytes = 160;
const QByteArray kUnknown = QByteArrayLiteral("-");

// A prepared statement that finalizes itself.
class Statement final
{
public:
    Statement(sqlite3 *db, const char *sql)
    {
        m_code = sqlite3_prepare_v2(db, sql, -1, &m_statement, nullptr);
    }
    ~Statement() { sqlite3_finalize(m_statement); }
    Q_DISABLE_COPY_MOVE(Statement)

    bool prepared() const { return m_code == SQLITE_OK; }
    bool bind(int index, qint64 value) { return sqlite3_bind_int64(m_statement, index, value) == SQLITE_OK; }
    int step() { return sqlite3_step(m_statement); }
    qint64 integer(int column) const { return sqlite3_column_int64(m_statement, column); }
    QByteArray bytes(int column) const
    {
        return QByteArray(reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column)),
                          sqlite3_column_bytes(m_statement, column));
    }
    sqlite3_stmt *get() const { return m_statement; }

private:
    sqlite3_stmt *m_statement = nullptr;
    int m_code = SQLITE_ERROR;
};

// A read transaction, so every query of one poll sees the same commit.
class ReadSnapshot final
{
public:
    explicit ReadSnapshot(sqlite3 *db) : m_db(db)
    {
        m_open = sqlite3_exec(m_db, "BEGIN", nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    ~ReadSnapshot()
    {
        if (m_open)
            sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr);
    }
    Q_DISABLE_COPY_MOVE(ReadSnapshot)

    bool open() const { return m_open; }

private:
    sqlite3 *m_db;
    bool m_open = false;
};

// Digits only, at most what fits an int64: a cursor is hostile input.
std::optional<qint64> wholeNumber(const QByteArray &text)
{
    if (text.isEmpty() || text.size() > 19)
        return std::nullopt;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
    }
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    return ok ? std::optional<qint64>(value) : std::nullopt;
}

bool isLowerHex(const QByteArray &text, qsizetype size)
{
    return text.size() == size && std::all_of(text.cbegin(), text.cend(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

DirectoryChanges unchangedAt(QByteArray cursor)
{
    DirectoryChanges changes;
    changes.cursor = std::move(cursor);
    changes.unchanged = true;
    return changes;
}

} // namespace

const QString SqliteChangeFeed::kOutsideWriteKind = OutsideWriteReport::kKind;

// What a cursor holds: the feed and data_version it was read at (for the cheap check,
// meaningful only to that feed's connection), and the event it stands at.
struct SqliteChangeFeed::Cursor
{
    quint64 feedId = 0; // 0: no feed (a cursor built from a bare seq)
    std::optional<qint64> dataVersion;
    qint64 seq = 0;
    QByteArray hash; // empty: not known

    QByteArray text() const
    {
        return kCursorTag + ':' + (feedId ? QByteArray::number(feedId, 16).rightJustified(16, '0') : kUnknown)
               + ':' + (dataVersion ? QByteArray::number(*dataVersion) : kUnknown) + ':'
               + QByteArray::number(seq) + ':' + (hash.isEmpty() ? kUnknown : hash);
    }

    static std::optional<Cursor> parse(const QByteArray &text)
    {
        if (text.size() > kMaxCursorBytes)
            return std::nullopt;
        const QList<QByteArray> parts = text.split(':');
        if (parts.size() != 5 || parts[0] != kCursorTag)
            return std::nullopt;
        Cursor cursor;
        if (parts[1] != kUnknown) {
            if (!isLowerHex(parts[1], 16))
                return std::nullopt;
            cursor.feedId = parts[1].toULongLong(nullptr, 16);
        }
        if (parts[2] != kUnknown) {
            cursor.dataVersion = wholeNumber(parts[2]);
            if (!cursor.dataVersion)
                return std::nullopt;
        }
        const std::optional<qint64> seq = wholeNumber(parts[3]);
        if (!seq)
            return std::nullopt;
        cursor.seq = *seq;
        if (parts[4] != kUnknown) {
            if (!isLowerHex(parts[4], 64))
                return std::nullopt;
            cursor.hash = parts[4];
        }
        return cursor;
    }
};

SqliteChangeFeed::SqliteChangeFeed(QString path)
    : m_path(std::move(path)), m_feedId(QRandomGenerator::global()->generate64() | 1)
{}

SqliteChangeFeed::~SqliteChangeFeed()
{
    sqlite3_close_v2(m_db);
}

QByteArray SqliteChangeFeed::cursorAtEvent(qint64 seq)
{
    Cursor cursor;
    cursor.seq = seq;
    return cursor.text();
}

std::optional<qint64> SqliteChangeFeed::eventSeqOf(const QByteArray &cursor)
{
    const std::optional<Cursor> parsed = Cursor::parse(cursor);
    return parsed ? std::optional<qint64>(parsed->seq) : std::nullopt;
}

QByteArray SqliteChangeFeed::eventHashOf(const QByteArray &cursor)
{
    const std::optional<Cursor> parsed = Cursor::parse(cursor);
    return parsed ? parsed->hash : QByteArray();
}

StoreError SqliteChangeFeed::failure(const QString &what) const
{
    return StoreError::make(
        Kind::Io, QStringLiteral("%1 of %2: %3").arg(what, m_path, QString::fromUtf8(sqlite3_errmsg(m_db))));
}

StoreError SqliteChangeFeed::openConnection() const
{
    if (m_db)
        return StoreError::none();
    const int opened = sqlite3_open_v2(m_path.toUtf8().constData(), &m_db,
                                       SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, nullptr);
    if (opened != SQLITE_OK) {
        StoreError error = failure(QStringLiteral("cannot open the change feed"));
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        return error;
    }
    sqlite3_busy_timeout(m_db, 5000);
    return StoreError::none();
}

StoreResult<qint64> SqliteChangeFeed::dataVersion() const
{
    Statement pragma(m_db, "PRAGMA data_version");
    if (!pragma.prepared() || pragma.step() != SQLITE_ROW)
        return failure(QStringLiteral("cannot read the data version"));
    return pragma.integer(0);
}

StoreResult<SqliteChangeFeed::Head> SqliteChangeFeed::head() const
{
    Statement query(m_db, "SELECT seq, hash FROM event_chain_head WHERE id = 1");
    if (!query.prepared())
        return failure(QStringLiteral("cannot read the event log's head"));
    const int step = query.step();
    if (step == SQLITE_DONE)
        return Head{0, EventLog::kGenesisHash.toLatin1()};
    if (step != SQLITE_ROW)
        return failure(QStringLiteral("cannot read the event log's head"));
    return Head{query.integer(0), query.bytes(1)};
}

StoreResult<bool> SqliteChangeFeed::outsideWritesAccountedFor() const
{
    Statement triggers(m_db,
                       "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'directory' "
                       "AND name IN ('directory_outside_insert', 'directory_outside_update', "
                       "'directory_outside_delete')");
    if (!triggers.prepared() || triggers.step() != SQLITE_ROW)
        return failure(QStringLiteral("cannot read the schema"));
    if (triggers.integer(0) != 3)
        return false;
    Statement marks(m_db, "SELECT counted = recorded FROM directory_outside_writes WHERE id = 1");
    if (!marks.prepared())
        return false;
    const int step = marks.step();
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return failure(QStringLiteral("cannot read the outside-write count"));
    return step == SQLITE_ROW && marks.integer(0) == 1;
}

void SqliteChangeFeed::recordOutsideWrites() const
{
    {
        Statement marks(m_db, "SELECT counted - recorded FROM directory_outside_writes WHERE id = 1");
        if (!marks.prepared() || marks.step() != SQLITE_ROW || marks.integer(0) == 0)
            return;
    }
    // Should this fail (the file busy past the timeout, a read-only disk), the poll is
    // still right: writes not accounted for make it answer complete, and the next poll
    // tries again.
    const QString name = ConnectionName::fresh(QStringLiteral("feed"));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(m_path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        if (db.open())
            OutsideWriteReport::append(db);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
}

StoreResult<bool> SqliteChangeFeed::deltaCanBeTold(const Cursor &since, const Head &now) const
{
    StoreResult<bool> accounted = outsideWritesAccountedFor();
    if (!accounted.ok() || !accounted.value())
        return accounted;
    if (since.seq > now.seq)
        return false;
    if (!since.hash.isEmpty()) {
        if (since.seq == 0)
            return since.hash == EventLog::kGenesisHash.toLatin1();
        Statement event(m_db, "SELECT hash FROM events WHERE seq = ?1");
        if (!event.prepared() || !event.bind(1, since.seq))
            return failure(QStringLiteral("cannot read the event log"));
        const int step = event.step();
        if (step != SQLITE_ROW && step != SQLITE_DONE)
            return failure(QStringLiteral("cannot read the event log"));
        if (step == SQLITE_DONE || event.bytes(0) != since.hash)
            return false;
    }
    Statement outside(m_db,
                      "SELECT 1 FROM events WHERE seq > ?1 AND kind = 'DIRECTORY_OUTSIDE_WRITE' LIMIT 1");
    if (!outside.prepared() || !outside.bind(1, since.seq))
        return failure(QStringLiteral("cannot read the event log"));
    const int step = outside.step();
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return failure(QStringLiteral("cannot read the event log"));
    return step == SQLITE_DONE;
}

StoreResult<QStringList> SqliteChangeFeed::touchedKeys(qint64 afterSeq) const
{
    Statement query(m_db, "SELECT DISTINCT key FROM events WHERE seq > ?1 AND kind = 'DIRECTORY_MUTATE' "
                          "AND key IS NOT NULL LIMIT ?2");
    if (!query.prepared() || !query.bind(1, afterSeq) || !query.bind(2, kMaxDeltaKeys + 1))
        return failure(QStringLiteral("cannot read the event log"));
    QStringList keys;
    int step = SQLITE_ROW;
    while ((step = query.step()) == SQLITE_ROW)
        keys.append(QString::fromUtf8(query.bytes(0)));
    if (step != SQLITE_DONE)
        return failure(QStringLiteral("cannot read the event log"));
    return keys;
}

StoreError SqliteChangeFeed::readDelta(qint64 afterSeq, const QStringList &keys,
                                       DirectoryChanges *changes) const
{
    const QByteArray sql = QByteArray("SELECT ") + SqliteSummaryScan::kColumns
                           + " FROM directory WHERE key IN (SELECT key FROM events WHERE seq > ?1 "
                             "AND kind = 'DIRECTORY_MUTATE')";
    Statement query(m_db, sql.constData());
    if (!query.prepared() || !query.bind(1, afterSeq))
        return failure(QStringLiteral("cannot read the changed rows"));
    QSet<QString> present;
    const int step = SqliteSummaryScan::read(query.get(), [&](const RowSummaryView &view) {
        changes->changed.append(RowSummary::of(view));
        present.insert(changes->changed.last().key);
    });
    if (step != SQLITE_DONE)
        return failure(QStringLiteral("cannot read the changed rows"));
    for (const QString &key : keys) {
        if (!present.contains(key))
            changes->removed.append(key);
    }
    return StoreError::none();
}

StoreError SqliteChangeFeed::readEverything(DirectoryChanges *changes) const
{
    const QByteArray sql = QByteArray("SELECT ") + SqliteSummaryScan::kColumns + " FROM directory";
    Statement query(m_db, sql.constData());
    if (!query.prepared())
        return failure(QStringLiteral("cannot read the rows"));
    changes->complete = true;
    {
        Statement count(m_db, "SELECT count(*) FROM directory");
        if (count.prepared() && count.step() == SQLITE_ROW)
            changes->changed.reserve(qsizetype(count.integer(0)));
    }
    const int step = SqliteSummaryScan::read(
        query.get(), [&](const RowSummaryView &view) { changes->changed.append(RowSummary::of(view)); });
    if (step != SQLITE_DONE)
        return failure(QStringLiteral("cannot read the rows"));
    return StoreError::none();
}

StoreResult<DirectoryChanges> SqliteChangeFeed::changesSince(const QByteArray &cursor) const
{
    QMutexLocker lock(&m_mutex);
    if (const StoreError error = openConnection(); error.isError())
        return error;
    const std::optional<Cursor> since = cursor.isEmpty() ? std::nullopt : Cursor::parse(cursor);
    // Read before the snapshot: a commit landing in between is in the snapshot and
    // changes data_version again, so the next poll looks once more rather than missing it.
    const StoreResult<qint64> version = dataVersion();
    if (!version.ok())
        return version.error();
    if (since && since->feedId == m_feedId && since->dataVersion == version.value())
        return unchangedAt(cursor);

    recordOutsideWrites();
    const ReadSnapshot snapshot(m_db);
    if (!snapshot.open())
        return failure(QStringLiteral("cannot read the change feed"));
    const StoreResult<Head> now = head();
    if (!now.ok())
        return now.error();
    const Cursor next{m_feedId, version.value(), now.value().seq, now.value().hash};
    if (cursor.isEmpty())
        return unchangedAt(next.text());

    DirectoryChanges changes;
    changes.cursor = next.text();
    StoreResult<bool> delta = since ? deltaCanBeTold(*since, now.value()) : StoreResult<bool>(false);
    if (!delta.ok())
        return delta.error();
    QStringList keys;
    if (delta.value()) {
        StoreResult<QStringList> touched = touchedKeys(since->seq);
        if (!touched.ok())
            return touched.error();
        keys = std::move(touched.value());
        if (keys.size() > kMaxDeltaKeys)
            delta = false;
    }
    if (!delta.value()) {
        if (const StoreError error = readEverything(&changes); error.isError())
            return error;
        return changes;
    }
    if (keys.isEmpty())
        return unchangedAt(changes.cursor);
    if (const StoreError error = readDelta(since->seq, keys, &changes); error.isError())
        return error;
    return changes;
}
