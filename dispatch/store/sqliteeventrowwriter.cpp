#include "dispatch/store/sqliteeventrowwriter.h"

#include "dispatch/store/sqldialect.h"

#include <QSqlDriver>
#include <QVariant>

#include <sqlite3.h>

#include <algorithm>
#include <iterator>

namespace {

const QByteArray kInsert = "INSERT INTO events (seq, kind, action, key, actor, at, before_json, after_json, "
                           "detail, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
const QByteArray kMoveHead = "INSERT INTO event_chain_head (id, seq, hash) VALUES (1, ?, ?) "
                             "ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash";

} // namespace

void SqliteEventRowWriter::StatementDeleter::operator()(sqlite3_stmt *statement) const
{
    sqlite3_finalize(statement);
}

StoreResult<std::unique_ptr<EventRowWriter>> SqliteEventRowWriter::open(const QSqlDatabase &db)
{
    const QVariant handle = db.driver()->handle();
    sqlite3 *connection = handle.isValid() ? *static_cast<sqlite3 *const *>(handle.constData()) : nullptr;
    if (!connection)
        return StoreError::make(StoreError::Kind::Io, QStringLiteral("the event log's database is not open"));
    std::unique_ptr<SqliteEventRowWriter> writer(new SqliteEventRowWriter(connection));
    auto prepare = [connection](const QByteArray &sql, Statement *statement) {
        sqlite3_stmt *prepared = nullptr;
        const bool ok =
            sqlite3_prepare_v2(connection, sql.constData(), int(sql.size()), &prepared, nullptr) == SQLITE_OK;
        statement->reset(prepared);
        return ok;
    };
    if (!prepare(kInsert, &writer->m_insert) || !prepare(kMoveHead, &writer->m_moveHead))
        return writer->failure(QStringLiteral("cannot append to the event log"));
    return std::unique_ptr<EventRowWriter>(std::move(writer));
}

StoreError SqliteEventRowWriter::failure(const QString &what) const
{
    return StoreError::make(StoreError::Kind::Io, QStringLiteral("%1: %2").arg(
                                                      what, QString::fromUtf8(sqlite3_errmsg(m_connection))));
}

bool SqliteEventRowWriter::holdsWriteLock() const
{
    // BEGIN IMMEDIATE took the file's write lock; outside a transaction there is none.
    return !sqlite3_get_autocommit(m_connection);
}

StoreError SqliteEventRowWriter::insert(const EncodedEvent &event)
{
    sqlite3_stmt *insert = m_insert.get();
    auto bindText = [insert](int index, const QByteArray &text, bool isNull = false) {
        return isNull ? sqlite3_bind_null(insert, index)
                      : sqlite3_bind_text(insert, index, text.constData(), int(text.size()), SQLITE_STATIC);
    };
    const int bound[] = {
        sqlite3_bind_int64(insert, 1, event.seq),
        bindText(2, event.kind),
        bindText(3, event.action),
        bindText(4, event.key, event.keyIsNull),
        bindText(5, event.actor),
        bindText(6, event.at),
        bindText(7, event.before, event.before == "null"), // SQL NULL: no row on that side
        bindText(8, event.after, event.after == "null"),
        bindText(9, event.detail),
        bindText(10, event.prevHash),
        bindText(11, event.hash),
    };
    const bool ok =
        std::all_of(std::begin(bound), std::end(bound), [](int code) { return code == SQLITE_OK; })
        && sqlite3_step(insert) == SQLITE_DONE;
    sqlite3_reset(insert);
    if (!ok)
        return failure(QStringLiteral("cannot append event #%1").arg(event.seq));
    return StoreError::none();
}

StoreError SqliteEventRowWriter::moveHead(qint64 seq, const QByteArray &hash)
{
    sqlite3_stmt *moveHead = m_moveHead.get();
    const bool moved =
        sqlite3_bind_int64(moveHead, 1, seq) == SQLITE_OK
        && sqlite3_bind_text(moveHead, 2, hash.constData(), int(hash.size()), SQLITE_STATIC) == SQLITE_OK
        && sqlite3_step(moveHead) == SQLITE_DONE;
    sqlite3_reset(moveHead);
    if (!moved)
        return failure(QStringLiteral("cannot move the event log's head"));
    return StoreError::none();
}
