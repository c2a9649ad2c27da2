#include "dispatch/store/sqldirectorystore.h"

#include "dispatch/core/isotime.h"
#include "dispatch/lint/hygienegate.h"
#include "dispatch/row/rowjsonfield.h"
#include "dispatch/row/rowschema.h"
#include "dispatch/row/rowvalidator.h"
#include "dispatch/store/connectionname.h"
#include "dispatch/store/directoryschema.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/postgresdirectoryengine.h"
#include "dispatch/store/postgreslocation.h"
#include "dispatch/store/qtsqlrowscan.h"
#include "dispatch/store/rowrestore.h"
#include "dispatch/store/sqldialect.h"
#include "dispatch/store/sqlitedirectoryengine.h"
#include "dispatch/store/writetransaction.h"

#include <QJsonArray>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>

#include <algorithm>
#include <utility>

namespace {

using Kind = StoreError::Kind;

StoreError sqlError(const QString &what, const QSqlError &error)
{
    const QString text = error.text();
    // SQLite's constraint failures are the row's fault, not the disk's.
    const Kind kind =
        text.contains(QLatin1String("constraint"), Qt::CaseInsensitive) ? Kind::Invalid : Kind::Io;
    return StoreError::make(kind, QStringLiteral("%1: %2").arg(what, text));
}

QString likePattern(const QString &needle)
{
    QString escaped = needle;
    escaped.replace(u'\\', QLatin1String("\\\\"))
        .replace(u'%', QLatin1String("\\%"))
        .replace(u'_', QLatin1String("\\_"));
    return u'%' + escaped + u'%';
}

} // namespace

StoreResult<std::shared_ptr<SqlDirectoryStore>>
SqlDirectoryStore::open(const QString &location, const DatabasePasswordLookup &passwords, Creation creation)
{
    if (PostgresLocation::isUrl(location)) {
        StoreResult<PostgresLocation> parsed = PostgresLocation::parse(location);
        if (!parsed.ok())
            return parsed.error();
        return open(std::make_unique<PostgresDirectoryEngine>(parsed.value(), passwords), creation);
    }
    return open(std::make_unique<SqliteDirectoryEngine>(location), creation);
}

StoreResult<std::shared_ptr<SqlDirectoryStore>>
SqlDirectoryStore::open(std::unique_ptr<DirectoryEngine> engine, Creation creation)
{
    StoreError error = engine->checkBeforeOpening();
    if (error.isError())
        return error;
    const QString name = ConnectionName::fresh(QStringLiteral("store"));
    std::shared_ptr<SqlDirectoryStore> store(new SqlDirectoryStore(std::move(engine), name));
    error = store->m_engine->openConnection(name, false);
    if (error.isError())
        return error;
    QSqlDatabase db = store->database();
    if (creation == Creation::Existing) {
        const StoreResult<bool> empty = DirectorySchema::holdsNoTables(db, store->location());
        if (!empty.ok())
            return empty.error();
        if (empty.value())
            return StoreError::make(StoreError::Kind::NotFound,
                                    QStringLiteral("%1 holds no directory yet (capdeskctl init creates one)")
                                        .arg(store->location()));
    }
    error = store->m_engine->prepare(db);
    if (error.isError())
        return error;
    return store;
}

SqlDirectoryStore::SqlDirectoryStore(std::unique_ptr<DirectoryEngine> engine, QString connectionName)
    : m_engine(std::move(engine)), m_path(m_engine->location()), m_connectionName(std::move(connectionName)),
      m_ownerThread(QThread::currentThread())
{
    if (m_engine->keepsReadConnections())
        m_readConnections = std::make_unique<ThreadReadConnections>(*m_engine);
}

SqlDirectoryStore::~SqlDirectoryStore()
{
    m_statements.reset();
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

QSqlDatabase SqlDirectoryStore::database() const
{
    return QSqlDatabase::database(m_connectionName, false);
}

PreparedStatements &SqlDirectoryStore::statements() const
{
    if (!m_statements)
        m_statements = std::make_unique<PreparedStatements>(database());
    return *m_statements;
}

StoreError SqlDirectoryStore::withReadConnection(const std::function<StoreError(QSqlDatabase &)> &read) const
{
    if (QThread::currentThread() == m_ownerThread) {
        QSqlDatabase db = database();
        return read(db);
    }
    // A thread already finished would never tell that its kept connection can go.
    if (m_readConnections && !QThread::currentThread()->isFinished())
        return m_readConnections->read(read);
    const QString name = ConnectionName::fresh(QStringLiteral("store"));
    StoreError error = m_engine->openConnection(name, true);
    if (!error.isError()) {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        error = read(db);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

StoreError SqlDirectoryStore::scanSummaryViews(const std::function<void(const RowSummaryView &)> &sink,
                                               int firstByKey) const
{
    return withReadConnection(
        [&](QSqlDatabase &connection) { return m_engine->scanSummaries(connection, sink, firstByKey); });
}

StoreResult<Row> SqlDirectoryStore::row(const QString &key) const
{
    static const QString select =
        QStringLiteral("SELECT %1 FROM directory WHERE key = ?").arg(QtSqlRowScan::columns());
    // The kept statements belong to the store's own connection, which QtSql ties to the
    // thread that opened it: no other thread may share them.
    if (QThread::currentThread() != m_ownerThread)
        return StoreError::make(Kind::Io, QStringLiteral("cannot read %1: a row is read on the thread that "
                                                         "opened the directory")
                                              .arg(key));
    PreparedRun read = statements().run(select, {key});
    if (!read.ok())
        return sqlError(QStringLiteral("cannot read %1").arg(key), read.lastError());
    if (!read.query().next())
        return StoreError::make(Kind::NotFound, QStringLiteral("no row '%1'").arg(key));
    return QtSqlRowScan::rowAt(read.query());
}

StoreResult<QList<Row>> SqlDirectoryStore::allRows() const
{
    QList<Row> rows;
    const StoreError error = scanRows([&rows](QList<Row> &&batch) {
        rows.append(std::move(batch));
        return true;
    });
    if (error.isError())
        return error;
    return rows;
}

// On any thread: lint-all and the registry total read the directory on the pool.
StoreError SqlDirectoryStore::scanRows(const RowBatchSink &sink, int batchRows, RowOrder order) const
{
    batchRows = std::max(1, batchRows);
    return withReadConnection([&](QSqlDatabase &db) -> StoreError {
        QList<Row> batch;
        batch.reserve(batchRows);
        bool stopped = false;
        StoreError error = m_engine->scanRows(db, order == RowOrder::ByKey, [&](Row &&row) {
            batch.append(std::move(row));
            if (batch.size() < batchRows)
                return true;
            stopped = !sink(std::exchange(batch, {}));
            batch.reserve(batchRows);
            return !stopped;
        });
        if (error.isError())
            return error;
        if (!stopped && !batch.isEmpty())
            sink(std::move(batch));
        return StoreError::none();
    });
}

StoreResult<QList<Row>> SqlDirectoryStore::rows(const QStringList &keys) const
{
    // SQLite limits bound parameters per statement; 500 stays far below every build's limit.
    constexpr qsizetype chunk = 500;
    QList<Row> found;
    QSqlQuery query(database());
    query.setForwardOnly(true);
    for (qsizetype start = 0; start < keys.size(); start += chunk) {
        const QStringList part = keys.mid(start, chunk);
        QStringList marks;
        for (qsizetype i = 0; i < part.size(); ++i)
            marks.append(QStringLiteral("?"));
        query.prepare(QStringLiteral("SELECT %1 FROM directory WHERE key IN (%2)")
                          .arg(QtSqlRowScan::columns(), marks.join(u',')));
        for (const QString &key : part)
            query.addBindValue(key);
        if (!query.exec())
            return sqlError(QStringLiteral("cannot read %1").arg(m_path), query.lastError());
        while (query.next())
            found.append(QtSqlRowScan::rowAt(query));
        if (query.lastError().isValid())
            return sqlError(QStringLiteral("cannot read %1").arg(m_path), query.lastError());
    }
    return found;
}

StoreResult<QStringList> SqlDirectoryStore::keysWithContent(const QString &needle) const
{
    QStringList keys;
    const StoreError error = withReadConnection([&](QSqlDatabase &db) -> StoreError {
        QSqlQuery query(db);
        query.setForwardOnly(true);
        query.prepare(QStringLiteral("SELECT key FROM directory WHERE content %1 ? ESCAPE '\\'")
                          .arg(SqlDialect::of(db).likeIgnoringCase));
        query.addBindValue(likePattern(needle));
        if (!query.exec())
            return sqlError(QStringLiteral("content search failed"), query.lastError());
        while (query.next())
            keys.append(query.value(0).toString());
        if (query.lastError().isValid())
            return sqlError(QStringLiteral("content search failed"), query.lastError());
        return StoreError::none();
    });
    if (error.isError())
        return error;
    return keys;
}

StoreResult<QList<AuthUsage>> SqlDirectoryStore::authUsage() const
{
    QList<AuthUsage> usage;
    const StoreError error = withReadConnection([&](QSqlDatabase &db) -> StoreError {
        QSqlQuery query(db);
        query.setForwardOnly(true);
        if (!query.exec(
                QStringLiteral("SELECT auth, COUNT(*) FROM directory "
                               "WHERE auth IS NOT NULL AND trim(auth) <> '' GROUP BY auth ORDER BY auth")))
            return sqlError(QStringLiteral("cannot count auth usage"), query.lastError());
        while (query.next())
            usage.append({query.value(0).toString(), query.value(1).toInt()});
        if (query.lastError().isValid())
            return sqlError(QStringLiteral("cannot count auth usage"), query.lastError());
        return StoreError::none();
    });
    if (error.isError())
        return error;
    return usage;
}

bool SqlDirectoryStore::exists(const QString &key) const
{
    QSqlQuery query(database());
    query.prepare(QStringLiteral("SELECT 1 FROM directory WHERE key = ?"));
    query.addBindValue(key);
    return query.exec() && query.next();
}

QString SqlDirectoryStore::insertStatement()
{
    QStringList marks;
    for (qsizetype i = 0; i < RowSchema::columns().size(); ++i)
        marks.append(QStringLiteral("?"));
    return QStringLiteral("INSERT INTO directory (%1) VALUES (%2)")
        .arg(QtSqlRowScan::columns(), marks.join(u','));
}

StoreError SqlDirectoryStore::insertRow(const Row &row)
{
    QSqlQuery query(database());
    query.prepare(insertStatement());
    for (const QString &column : RowSchema::columns())
        query.addBindValue(row.value(column));
    if (!query.exec())
        return sqlError(QStringLiteral("cannot write '%1'").arg(row.key), query.lastError());
    return StoreError::none();
}

StoreError SqlDirectoryStore::updateRow(const Row &row)
{
    QStringList assignments;
    for (const QString &column : RowSchema::columns()) {
        if (column != QLatin1String("key"))
            assignments.append(column + QStringLiteral(" = ?"));
    }
    QSqlQuery query(database());
    query.prepare(
        QStringLiteral("UPDATE directory SET %1 WHERE key = ?").arg(assignments.join(QStringLiteral(", "))));
    for (const QString &column : RowSchema::columns()) {
        if (column != QLatin1String("key"))
            query.addBindValue(row.value(column));
    }
    query.addBindValue(row.key);
    if (!query.exec())
        return sqlError(QStringLiteral("cannot write '%1'").arg(row.key), query.lastError());
    return StoreError::none();
}

StoreError SqlDirectoryStore::markLogging(bool logging)
{
    QSqlQuery query(database());
    query.prepare(QStringLiteral("UPDATE directory_outside_writes SET logging = ? WHERE id = 1"));
    query.addBindValue(logging ? 1 : 0);
    if (!query.exec())
        return sqlError(QStringLiteral("cannot mark the write as logged"), query.lastError());
    return StoreError::none();
}

StoreError SqlDirectoryStore::inWriteTransaction(const std::function<StoreError(EventLog &)> &work)
{
    WriteTransaction transaction(database());
    if (transaction.startError().isError())
        return transaction.startError();
    StoreError error = markLogging(true);
    {
        // The log's statements end before the transaction does.
        EventLog log(database(), m_clock);
        if (!error.isError())
            error = work(log);
    }
    // Cleared before the commit, so no other connection ever sees it set.
    if (!error.isError())
        error = markLogging(false);
    if (error.isError()) {
        m_index.reset();
        return error;
    }
    StoreError committed = transaction.commit();
    if (committed.isError())
        m_index.reset();
    return committed;
}

DirectoryIndex &SqlDirectoryStore::index()
{
    // A table that cannot be read fails the write that follows with its own error, so an
    // empty index here refuses nothing that would otherwise have been written.
    if (!m_index) {
        const StoreResult<QList<Row>> rows = allRows();
        m_index = DirectoryIndex::build(rows.ok() ? rows.value() : QList<Row>());
    }
    return *m_index;
}

StoreResult<WriteOutcome>
SqlDirectoryStore::writeOne(const std::function<StoreResult<WriteOutcome>(EventLog &)> &work)
{
    std::optional<WriteOutcome> outcome;
    const StoreError error = inWriteTransaction([&](EventLog &log) -> StoreError {
        StoreResult<WriteOutcome> written = work(log);
        if (!written.ok())
            return written.error();
        outcome = written.value();
        return StoreError::none();
    });
    if (error.isError())
        return error;
    return *outcome;
}

StoreResult<WriteOutcome> SqlDirectoryStore::createIn(Row row, EventLog &log)
{
    const QList<FieldProblem> problems = RowValidator::check(row);
    if (!problems.isEmpty())
        return StoreError::make(Kind::Invalid,
                                row.key + QStringLiteral(": ") + RowValidator::describe(problems));
    if (exists(row.key))
        return StoreError::make(Kind::AlreadyExists, QStringLiteral("row '%1' already exists").arg(row.key));
    const StoreError refused = HygieneGate::checkCreate(row, index());
    if (refused.isError())
        return refused;
    row.updatedAt = IsoTime::nowUtc(*m_clock);
    row.createdAt = row.updatedAt;
    StoreError error = insertRow(row);
    if (!error.isError())
        index().update(row);
    if (!error.isError())
        error = log.appendRowChange(QStringLiteral("create"), m_actor, nullptr, &row, row.updatedAt);
    if (error.isError())
        return error;
    return WriteOutcome{row.key, row.updatedAt, true};
}

StoreResult<WriteOutcome> SqlDirectoryStore::replaceIn(Row row, const QString &expectedUpdatedAt,
                                                       ReplaceGate gate, EventLog &log, qint64 restoresSeq)
{
    const StoreResult<Row> current = this->row(row.key);
    if (!current.ok())
        return current.error();
    if (restoresSeq != 0) {
        // The hash-chained log must not call anything a restore: the write is exactly the
        // row that event of this key saved.
        const StoreResult<QList<LogEvent>> versions = log.events(row.key);
        if (!versions.ok())
            return versions.error();
        const StoreResult<Row> version = RowRestore::version(versions.value(), row.key, restoresSeq);
        if (!version.ok())
            return StoreError::make(
                Kind::Invalid,
                version.error().kind == Kind::NotFound
                    ? QStringLiteral("%1 has no saved version #%2 to restore").arg(row.key).arg(restoresSeq)
                    : version.error().message);
        if (!(RowRestore::onto(row, version.value()) == row))
            return StoreError::make(
                Kind::Invalid,
                QStringLiteral("%1: the row written is not version #%2").arg(row.key).arg(restoresSeq));
    }
    // Their row goes along, so the editor can offer a merge instead of only refusing.
    if (!expectedUpdatedAt.isNull() && current.value().updatedAt != expectedUpdatedAt)
        return StoreError::make(Kind::Conflict,
                                QStringLiteral("'%1' changed since it was read (updated %2, read %3)")
                                    .arg(row.key, current.value().updatedAt, expectedUpdatedAt),
                                QJsonArray{current.value().toJson()});
    // Judged on what the write changes, as a patch is: a row that predates a rule stays
    // editable for unrelated maintenance.
    QStringList changed;
    for (const QString &column : RowSchema::columns()) {
        if (row.value(column) != current.value().value(column))
            changed.append(column);
    }
    const QList<FieldProblem> problems = RowValidator::checkFields(row, changed);
    if (!problems.isEmpty())
        return StoreError::make(Kind::Invalid,
                                row.key + QStringLiteral(": ") + RowValidator::describe(problems));
    const StoreError refused = gate == ReplaceGate::Strict
                                   ? HygieneGate::checkCreate(row, index())
                                   : HygieneGate::checkPatch(current.value(), row, index());
    if (refused.isError())
        return refused;
    row.updatedAt = IsoTime::nowUtcAfter(*m_clock, current.value().updatedAt);
    row.createdAt = current.value().createdAt;
    StoreError error = updateRow(row);
    if (!error.isError())
        index().update(row);
    if (!error.isError())
        error = restoresSeq != 0
                    ? log.appendRowChange(QStringLiteral("restore"), m_actor, &current.value(), &row,
                                          row.updatedAt, {{QStringLiteral("restores_seq"), restoresSeq}})
                    : log.appendRowChange(QStringLiteral("replace"), m_actor, &current.value(), &row,
                                          row.updatedAt);
    if (error.isError())
        return error;
    return WriteOutcome{row.key, row.updatedAt, false};
}

StoreError SqlDirectoryStore::removeIn(const QString &key, const QString &expectedUpdatedAt, EventLog &log)
{
    const StoreResult<Row> current = row(key);
    if (!current.ok())
        return current.error();
    if (!expectedUpdatedAt.isNull() && current.value().updatedAt != expectedUpdatedAt)
        return StoreError::make(Kind::Conflict,
                                QStringLiteral("'%1' changed since it was read (updated %2, read %3)")
                                    .arg(key, current.value().updatedAt, expectedUpdatedAt));
    QSqlQuery query(database());
    query.prepare(QStringLiteral("DELETE FROM directory WHERE key = ?"));
    query.addBindValue(key);
    if (!query.exec())
        return sqlError(QStringLiteral("cannot delete '%1'").arg(key), query.lastError());
    if (m_index)
        m_index->remove(key);
    return log.appendRowChange(QStringLiteral("delete"), m_actor, &current.value(), nullptr);
}

StoreResult<DirectoryChanges> SqlDirectoryStore::changesSince(const QByteArray &cursor) const
{
    return m_engine->changesSince(cursor);
}

StoreResult<WriteOutcome> SqlDirectoryStore::create(Row row)
{
    return writeOne([&](EventLog &log) { return createIn(std::move(row), log); });
}

StoreResult<WriteOutcome> SqlDirectoryStore::replace(Row row, const QString &expectedUpdatedAt)
{
    return writeOne([&](EventLog &log) {
        return replaceIn(std::move(row), expectedUpdatedAt, ReplaceGate::Strict, log);
    });
}

StoreError SqlDirectoryStore::remove(const QString &key, const QString &expectedUpdatedAt)
{
    return inWriteTransaction([&](EventLog &log) { return removeIn(key, expectedUpdatedAt, log); });
}

StoreResult<WriteOutcome> SqlDirectoryStore::put(Row row)
{
    // Inside the transaction, so no other writer can take or free the key in between.
    return writeOne([&](EventLog &log) {
        return exists(row.key) ? replaceIn(std::move(row), QString(), ReplaceGate::Strict, log)
                               : createIn(std::move(row), log);
    });
}

StoreResult<WriteOutcome> SqlDirectoryStore::patch(const QString &key, const QJsonObject &fields,
                                                   const QString &expectedUpdatedAt)
{
    QStringList named;
    QVariantList values;
    for (auto it = fields.constBegin(); it != fields.constEnd(); ++it) {
        if (!RowSchema::patchableFields().contains(it.key()))
            continue;
        QString message;
        const std::optional<QVariant> value = RowJsonField::read(it.key(), it.value(), &message);
        if (!value)
            return StoreError::make(Kind::Invalid, message);
        named.append(it.key());
        values.append(*value);
    }
    if (named.isEmpty())
        return StoreError::make(Kind::Invalid, QStringLiteral("no recognized fields"));

    return writeOne([&](EventLog &log) -> StoreResult<WriteOutcome> {
        const StoreResult<Row> current = row(key);
        if (!current.ok())
            return current.error();
        if (!expectedUpdatedAt.isEmpty() && current.value().updatedAt != expectedUpdatedAt)
            return StoreError::make(Kind::Conflict,
                                    QStringLiteral("'%1' changed since it was read (updated %2, read %3)")
                                        .arg(key, current.value().updatedAt, expectedUpdatedAt),
                                    QJsonArray{current.value().toJson()});
        Row patched = current.value();
        for (qsizetype i = 0; i < named.size(); ++i)
            patched.setValue(named.at(i), values.at(i));
        const QList<FieldProblem> problems = RowValidator::checkFields(patched, named);
        if (!problems.isEmpty())
            return StoreError::make(Kind::Invalid, RowValidator::describe(problems));
        // A patch is judged on the fields it names; an old row's other fields stay as they are.
        const StoreError refused = HygieneGate::checkPatch(current.value(), patched, index());
        if (refused.isError())
            return refused;
        patched.updatedAt = IsoTime::nowUtcAfter(*m_clock, current.value().updatedAt);
        QStringList assignments;
        for (const QString &field : named)
            assignments.append(field + QStringLiteral(" = ?"));
        assignments.append(QStringLiteral("updated_at = ?"));
        QSqlQuery query(database());
        query.prepare(QStringLiteral("UPDATE directory SET %1 WHERE key = ?")
                          .arg(assignments.join(QStringLiteral(", "))));
        for (const QString &field : named)
            query.addBindValue(patched.value(field));
        query.addBindValue(patched.updatedAt);
        query.addBindValue(key);
        if (!query.exec())
            return sqlError(QStringLiteral("cannot patch '%1'").arg(key), query.lastError());
        index().update(patched);
        const StoreError error = log.appendRowChange(QStringLiteral("patch"), m_actor, &current.value(),
                                                     &patched, patched.updatedAt);
        if (error.isError())
            return error;
        return WriteOutcome{key, patched.updatedAt, false};
    });
}

StoreError SqlDirectoryStore::importRows(const QList<Row> &rows)
{
    // Imports are not gated (legacy dumps must land as they are); the index is rebuilt.
    m_index.reset();
    return inWriteTransaction([&](EventLog &log) -> StoreError {
        QSqlQuery query(database());
        query.prepare(insertStatement());
        for (qsizetype i = 0; i < rows.size(); ++i) {
            Row row = rows.at(i);
            if (!RowSchema::isKnownType(row.type))
                return StoreError::make(
                    Kind::Invalid,
                    QStringLiteral("row %1 ('%2'): type '%3' is not one of fn, http, agent, flow")
                        .arg(i + 1)
                        .arg(row.key, row.type));
            if (row.key.isEmpty())
                return StoreError::make(Kind::Invalid, QStringLiteral("row %1 has no key").arg(i + 1));
            if (row.updatedAt.isEmpty())
                row.updatedAt = IsoTime::nowUtc(*m_clock);
            for (const QString &column : RowSchema::columns())
                query.addBindValue(row.value(column));
            // The primary key refuses a key taken in the store or earlier in the batch.
            if (!query.exec()) {
                if (SqlDialect::of(database()).isUniqueViolation(query.lastError()))
                    return StoreError::make(
                        Kind::Invalid, QStringLiteral("row %1: duplicate key '%2'").arg(i + 1).arg(row.key));
                return sqlError(QStringLiteral("cannot import '%1'").arg(row.key), query.lastError());
            }
            StoreError error = log.appendRowChange(QStringLiteral("import"), m_actor, nullptr, &row);
            if (error.isError())
                return error;
        }
        return StoreError::none();
    });
}

StoreError SqlDirectoryStore::apply(const ChangeSet &changes)
{
    ApplyTracking tracking;
    return applyTracked(changes, tracking);
}

StoreError SqlDirectoryStore::applyTracked(const ChangeSet &changes, ApplyTracking &tracking)
{
    QList<WriteOutcome> written;
    StoreError error = inWriteTransaction([&](EventLog &log) -> StoreError {
        for (const RowChange &change : changes) {
            if (tracking.cancelled)
                return StoreError::make(StoreError::Kind::Cancelled,
                                        QStringLiteral("the save was cancelled"));
            StoreResult<WriteOutcome> outcome = WriteOutcome{change.key, {}, false};
            switch (change.kind) {
            case RowChange::Kind::Create:
                outcome = createIn(change.row, log);
                break;
            case RowChange::Kind::Replace:
                outcome = replaceIn(change.row, change.expectedUpdatedAt, ReplaceGate::NonRegression, log,
                                    change.restoresSeq);
                break;
            case RowChange::Kind::Delete:
                if (StoreError removed = removeIn(change.key, change.expectedUpdatedAt, log);
                    removed.isError())
                    outcome = std::move(removed);
                break;
            }
            if (!outcome.ok())
                return outcome.error();
            written.append(outcome.value());
        }
        return StoreError::none();
    });
    // All or nothing: a rolled-back transaction wrote no row.
    if (!error.isError())
        tracking.written = std::move(written);
    return error;
}
