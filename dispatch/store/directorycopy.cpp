#include "dispatch/store/directorycopy.h"

#include "dispatch/store/sqldialect.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/store/writetransaction.h"

#include <QCryptographicHash>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>
#include <functional>

using namespace Qt::StringLiterals;

namespace {

// Rows are read a page at a time, after the last one's order value, so a copy of ten
// million receipts holds one page in memory (QPSQL buffers a whole result).
constexpr int kPageRows = 5000;

// Set by the copy itself (the outside-write triggers' switch) or by the database
// (PostgreSQL's identity of insertion), so never carried over.
const QStringList kNotCopied{u"logging"_s, u"insertion_order"_s};

struct TableShape
{
    QString name;
    // The column that orders its rows; empty for the insertion order of the engine.
    QString order;
    // One row (id 1) that every new directory already holds: updated, not inserted.
    bool singleton = false;
};

const QList<TableShape> &shapes()
{
    static const QList<TableShape> list{
        {u"directory"_s, u"key"_s},
        {u"signing_keys"_s, {}},
        {u"capability_tokens"_s, {}},
        {u"receipt_archives"_s, u"id"_s},
        {u"receipt_archive_ranges"_s, u"through_hash"_s},
        {u"receipts"_s, u"seq"_s},
        {u"receipt_chain_links"_s, u"receipt_seq"_s},
        {u"receipt_chain_heads"_s, u"writer"_s},
        {u"receipt_chain_origin"_s, u"id"_s, true},
        {u"events"_s, u"seq"_s},
        {u"event_chain_head"_s, u"id"_s},
        {u"directory_outside_writes"_s, u"id"_s, true},
    };
    return list;
}

StoreError sqlFailure(const QString &what, const QSqlQuery &query)
{
    return StoreError::make(StoreError::Kind::Io, u"%1: %2"_s.arg(what, query.lastError().text()));
}

// One side of the copy: its connection, and the texts of its engine.
struct Side
{
    QSqlDatabase db;
    const SqlDialect &dialect;
    QString location;

    QString orderOf(const TableShape &table) const
    {
        return table.order.isEmpty() ? dialect.insertionOrder : table.order;
    }

    StoreResult<QStringList> columns(const QString &table) const
    {
        QSqlQuery query(db);
        if (!query.exec(dialect.columnNames.arg(table)))
            return sqlFailure(u"cannot list the columns of %1 in %2"_s.arg(table, location), query);
        QStringList names;
        while (query.next()) {
            const QString name = query.value(0).toString();
            if (!kNotCopied.contains(name))
                names.append(name);
        }
        if (names.isEmpty())
            return StoreError::make(
                StoreError::Kind::NotDirectory,
                u"%1 has no table %2; it is not a whole directory"_s.arg(location, table));
        std::sort(names.begin(), names.end());
        return names;
    }

    // Calls `visit` for each row of `table` in order, a page at a time; the row's values
    // are the query's columns 1..n (column 0 is the order value).
    StoreError forEachRow(const TableShape &table, const QStringList &columns,
                          const std::function<StoreError(const QSqlQuery &)> &visit) const
    {
        const QString order = orderOf(table);
        const QString select = u"SELECT %1, %2 FROM %3 "_s.arg(order, columns.join(u", "_s), table.name);
        QVariant after;
        for (;;) {
            QSqlQuery page(db);
            page.setForwardOnly(true);
            page.prepare(select + (after.isValid() ? u"WHERE %1 > ? "_s.arg(order) : QString())
                         + u"ORDER BY %1 LIMIT %2"_s.arg(order).arg(kPageRows));
            if (after.isValid())
                page.addBindValue(after);
            if (!page.exec())
                return sqlFailure(u"cannot read %1 from %2"_s.arg(table.name, location), page);
            int read = 0;
            while (page.next()) {
                ++read;
                after = page.value(0);
                if (StoreError error = visit(page); error.isError())
                    return error;
            }
            if (page.lastError().isValid())
                return sqlFailure(u"cannot read %1 from %2"_s.arg(table.name, location), page);
            if (read < kPageRows)
                return StoreError::none();
        }
    }

    StoreResult<DirectoryCopy::Table> digest(const TableShape &table, const QStringList &columns) const
    {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        qint64 rows = 0;
        const StoreError error = forEachRow(table, columns, [&](const QSqlQuery &row) {
            ++rows;
            for (int i = 0; i < columns.size(); ++i) {
                const QVariant value = row.value(i + 1);
                // Length-prefixed, so no value can pass for two; NULL is not "".
                const QByteArray text = value.isNull() ? QByteArray("N") : "V" + value.toString().toUtf8();
                hash.addData(QByteArray::number(text.size()) + ':' + text);
            }
            hash.addData("\n");
            return StoreError::none();
        });
        if (error.isError())
            return error;
        return DirectoryCopy::Table{table.name, rows, QString::fromLatin1(hash.result().toHex())};
    }

    StoreResult<qint64> rowCount(const QString &table) const
    {
        QSqlQuery query(db);
        if (!query.exec(u"SELECT COUNT(*) FROM %1"_s.arg(table)) || !query.next())
            return sqlFailure(u"cannot count %1 in %2"_s.arg(table, location), query);
        return query.value(0).toLongLong();
    }

    StoreResult<qint64> eventSeqIssued() const
    {
        QSqlQuery query(db);
        if (!query.exec(dialect.eventSeqIssued))
            return sqlFailure(u"cannot read the last event seq of %1"_s.arg(location), query);
        return query.next() ? query.value(0).toLongLong() : 0;
    }

    StoreError setLogging(bool logging) const
    {
        QSqlQuery query(db);
        if (!query.exec(
                u"UPDATE directory_outside_writes SET logging = %1 WHERE id = 1"_s.arg(logging ? 1 : 0)))
            return sqlFailure(u"cannot mark the copy as logged"_s, query);
        return StoreError::none();
    }
};

StoreError sameColumns(const TableShape &table, const Side &from, const Side &to, QStringList *columns)
{
    const StoreResult<QStringList> source = from.columns(table.name);
    if (!source.ok())
        return source.error();
    const StoreResult<QStringList> destination = to.columns(table.name);
    if (!destination.ok())
        return destination.error();
    if (source.value() != destination.value())
        return StoreError::make(StoreError::Kind::TooNew,
                                u"the two directories' %1 tables differ (%2 against %3): open both with this "
                                "Capdesk first, so both are at its schema"_s.arg(
                                    table.name, source.value().join(u','), destination.value().join(u',')));
    *columns = source.value();
    return StoreError::none();
}

bool holdsNothing(const Side &side, StoreError *error)
{
    for (const TableShape &table : shapes()) {
        if (table.singleton)
            continue;
        const StoreResult<qint64> count = side.rowCount(table.name);
        if (!count.ok()) {
            *error = count.error();
            return false;
        }
        if (count.value() > 0)
            return false;
    }
    return true;
}

StoreError refuseUnlessEmpty(const Side &to)
{
    for (const TableShape &table : shapes()) {
        if (table.singleton)
            continue;
        const StoreResult<qint64> count = to.rowCount(table.name);
        if (!count.ok())
            return count.error();
        if (count.value() > 0)
            return StoreError::make(StoreError::Kind::AlreadyExists,
                                    u"%1 is not empty (its %2 table has %3 rows); migrate copies into a new "
                                    "directory only"_s.arg(to.location, table.name)
                                        .arg(count.value()));
    }
    const StoreResult<qint64> issued = to.eventSeqIssued();
    if (!issued.ok())
        return issued.error();
    if (issued.value() > 0)
        return StoreError::make(
            StoreError::Kind::AlreadyExists,
            u"%1 has held events before; migrate copies into a new directory only"_s.arg(to.location));
    return StoreError::none();
}

StoreError copyTable(const TableShape &table, const QStringList &columns, const Side &from, const Side &to,
                     qint64 *copied)
{
    QSqlQuery write(to.db);
    if (table.singleton) {
        QStringList sets;
        for (const QString &column : columns)
            sets.append(column + u" = ?"_s);
        write.prepare(u"UPDATE %1 SET %2 WHERE id = 1"_s.arg(table.name, sets.join(u", "_s)));
    } else {
        write.prepare(u"INSERT INTO %1 (%2) VALUES (%3)"_s.arg(
            table.name, columns.join(u", "_s), QStringList(columns.size(), u"?"_s).join(u", "_s)));
    }
    *copied = 0;
    return from.forEachRow(table, columns, [&](const QSqlQuery &row) {
        for (int i = 0; i < columns.size(); ++i)
            write.bindValue(i, row.value(i + 1));
        if (!write.exec())
            return sqlFailure(
                u"cannot copy row %1 of %2 into %3"_s.arg(*copied + 1).arg(table.name, to.location), write);
        ++*copied;
        return StoreError::none();
    });
}

StoreError followCopiedSeqs(const Side &to)
{
    if (to.dialect.followCopiedSeqs.isEmpty())
        return StoreError::none();
    // Only receipts draw their seq from the engine; an event's is its chain position.
    QSqlQuery query(to.db);
    if (!query.exec(to.dialect.followCopiedSeqs.arg(u"receipts"_s)))
        return sqlFailure(u"cannot move the receipts' seq past the copied rows"_s, query);
    return StoreError::none();
}

} // namespace

StoreResult<QList<DirectoryCopy::Table>> DirectoryCopy::copy(SqlDirectoryStore &from, SqlDirectoryStore &to)
{
    const Side source{from.database(), SqlDialect::of(from.database()), from.location()};
    const Side destination{to.database(), SqlDialect::of(to.database()), to.location()};
    // Checked before the locks as well: the same PostgreSQL database named two ways would
    // otherwise wait on its own lock for ever.
    if (const StoreError error = refuseUnlessEmpty(destination); error.isError())
        return error;
    StoreError unreadable;
    if (holdsNothing(source, &unreadable))
        return StoreError::make(
            StoreError::Kind::Invalid,
            u"%1 holds no rows, tokens, receipts or events: nothing to move"_s.arg(source.location));
    if (unreadable.isError())
        return unreadable;
    // The source's write lock, held to the end and never committed: no write lands there
    // between the copy and the comparison.
    WriteTransaction hold(source.db);
    if (hold.startError().isError())
        return hold.startError();
    WriteTransaction write(destination.db);
    if (write.startError().isError())
        return write.startError();
    if (const StoreError error = refuseUnlessEmpty(destination); error.isError())
        return error;
    if (const StoreError error = destination.setLogging(true); error.isError())
        return error;

    QList<Table> copied;
    for (const TableShape &table : shapes()) {
        QStringList columns;
        if (const StoreError error = sameColumns(table, source, destination, &columns); error.isError())
            return error;
        qint64 rows = 0;
        if (const StoreError error = copyTable(table, columns, source, destination, &rows); error.isError())
            return error;
        // Read back through the destination's own transaction: what it would commit.
        const StoreResult<Table> before = source.digest(table, columns);
        if (!before.ok())
            return before.error();
        const StoreResult<Table> after = destination.digest(table, columns);
        if (!after.ok())
            return after.error();
        if (before.value().rows != rows || after.value().rows != rows)
            return StoreError::make(StoreError::Kind::Io,
                                    u"the copy of %1 has %2 rows where the original has %3; nothing was "
                                    "written"_s.arg(table.name)
                                        .arg(after.value().rows)
                                        .arg(before.value().rows));
        if (before.value().digest != after.value().digest)
            return StoreError::make(StoreError::Kind::Io,
                                    u"the copy of %1 reads back different from the original (SHA-256 %2 "
                                    "against %3); nothing was written"_s.arg(table.name, after.value().digest,
                                                                             before.value().digest));
        copied.append(after.value());
    }
    if (const StoreError error = followCopiedSeqs(destination); error.isError())
        return error;
    const StoreResult<qint64> issuedBefore = source.eventSeqIssued();
    const StoreResult<qint64> issuedAfter = destination.eventSeqIssued();
    if (!issuedBefore.ok() || !issuedAfter.ok())
        return issuedBefore.ok() ? issuedAfter.error() : issuedBefore.error();
    if (issuedBefore.value() != issuedAfter.value())
        return StoreError::make(
            StoreError::Kind::Io,
            u"the source issued events up to %1 but holds them only up to %2: its log was cut "
            "back; nothing was written"_s.arg(issuedBefore.value())
                .arg(issuedAfter.value()));
    if (const StoreError error = destination.setLogging(false); error.isError())
        return error;
    if (const StoreError error = write.commit(); error.isError())
        return error;
    return copied;
}
