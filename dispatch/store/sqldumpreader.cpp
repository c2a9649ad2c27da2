#include "dispatch/store/sqldumpreader.h"

#include "dispatch/core/utf8text.h"
#include "dispatch/row/rowschema.h"
#include "dispatch/store/sqldumpgate.h"
#include "dispatch/store/sqldumplimits.h"

#include <QBuffer>
#include <QHash>
#include <QIODevice>
#include <QRegularExpression>

#include <sqlite3.h>

#include <algorithm>
#include <memory>

namespace {

const QLatin1String directoryTable("directory");
// The file is read in pieces of at most this size, so one long line never arrives whole
// before the statement limit is checked.
constexpr qint64 readPiece = 64 * 1024;

StoreError refuse(int line, const QString &message)
{
    return StoreError::make(StoreError::Kind::Invalid, QStringLiteral("line %1: %2").arg(line).arg(message));
}

struct DatabaseCloser
{
    void operator()(sqlite3 *db) const { sqlite3_close(db); }
};
struct StatementFinalizer
{
    void operator()(sqlite3_stmt *statement) const { sqlite3_finalize(statement); }
};
using Database = std::unique_ptr<sqlite3, DatabaseCloser>;
using Statement = std::unique_ptr<sqlite3_stmt, StatementFinalizer>;

Database openScratch()
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr)
        != SQLITE_OK) {
        sqlite3_close(db);
        return nullptr;
    }
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, SqlDumpLimits::maxStatementBytes);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, SqlDumpLimits::maxValueBytes);
    sqlite3_limit(db, SQLITE_LIMIT_COLUMN, SqlDumpLimits::maxColumns);
    sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, SqlDumpLimits::maxExpressionDepth);
    sqlite3_limit(db, SQLITE_LIMIT_FUNCTION_ARG, SqlDumpLimits::maxFunctionArguments);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 0);
    sqlite3_limit(db, SQLITE_LIMIT_WORKER_THREADS, 0);
    sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 64);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    return Database(db);
}

// Where the next statement starts: past blanks and comments, counting the lines passed.
const char *skipBlank(const char *at, const char *end, int &line)
{
    while (at < end) {
        if (*at == '\n') {
            ++line;
            ++at;
        } else if (*at == ' ' || *at == '\t' || *at == '\r' || *at == '\f' || *at == '\v') {
            ++at;
        } else if (*at == '-' && at + 1 < end && at[1] == '-') {
            while (at < end && *at != '\n')
                ++at;
        } else if (*at == '/' && at + 1 < end && at[1] == '*') {
            const char *close = at + 2;
            while (close + 1 < end && !(close[0] == '*' && close[1] == '/'))
                ++close;
            if (close + 1 >= end)
                return at; // SQLite names the unterminated comment
            line += int(std::count(at, close, '\n'));
            at = close + 2;
        } else {
            return at;
        }
    }
    return at;
}

// INSERT … VALUES may hold one SELECT: the one SQLite compiles a multi-row VALUES into.
bool isValuesForm(const char *at, const char *end)
{
    static const QRegularExpression form(
        QStringLiteral(
            R"(^INSERT\s+(?:OR\s+\w+\s+)?INTO\s+(?:NAME\s*\.\s*)?NAME\s*(?:\([^()]*\)\s*)?VALUES\b)")
            .replace(QStringLiteral("NAME"),
                     QStringLiteral(R"((?:"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|[A-Za-z_][A-Za-z0-9_$]*))")),
        QRegularExpression::CaseInsensitiveOption);
    const qsizetype head = std::min<qsizetype>(end - at, 4096);
    return form.match(QString::fromUtf8(at, head)).hasMatch();
}

// Reads the statements one by one into an empty in-memory database and collects the rows
// of `directory`; any other table is created (so its INSERTs can be checked) but never filled.
class DumpSession
{
public:
    explicit DumpSession(Database db) : m_db(std::move(db)), m_gate(m_db.get()) {}

    StoreError start()
    {
        // sqlite3 .dump refills sqlite_stat1 after ANALYZE; the table must exist for that.
        const StoreError analyzed = internal("ANALYZE");
        return analyzed.isError() ? analyzed : createDirectory(RowSchema::columns());
    }

    // `text` holds one or more whole statements, starting on `line`.
    StoreError statements(const QByteArray &text, int line)
    {
        if (const qsizetype bad = Utf8Text::firstInvalidByte(text); bad >= 0)
            return refuse(line + int(std::count(text.cbegin(), text.cbegin() + bad, '\n')),
                          QStringLiteral("invalid UTF-8"));
        const char *at = text.constData();
        const char *end = at + text.size();
        for (;;) {
            at = skipBlank(at, end, line);
            if (at >= end)
                return StoreError::none();
            const char *tail = nullptr;
            StoreError error = statement(at, end, line, &tail);
            if (error.isError())
                return error;
            line += int(std::count(at, tail, '\n'));
            at = tail;
        }
    }

    SqlDump &dump() { return m_dump; }

    void finishSkipped()
    {
        for (const QString &table : std::as_const(m_skippedTables))
            m_dump.skipped.append(
                QStringLiteral("table '%1' (%2 INSERTs)").arg(table).arg(m_inserts.value(table)));
        m_dump.skipped.append(m_skippedOthers);
    }

private:
    StoreError statement(const char *at, const char *end, int line, const char **tail)
    {
        Statement prepared = prepare(at, end, tail);
        if (m_gate.kind() == SqlDumpGate::Kind::CreateTable && m_gate.object() == directoryTable) {
            if (m_sawCreate)
                return refuse(line, QStringLiteral("the dump creates table 'directory' twice"));
            if (m_defaultTable) {
                // Rows read so far came in production column order; the dump's own table
                // takes over from here.
                prepared.reset();
                m_defaultTable = false;
                StoreError dropped = internal("DROP TABLE directory");
                if (dropped.isError())
                    return dropped;
                prepared = prepare(at, end, tail);
            }
        }
        if (!prepared) {
            if (!m_gate.refusal().isEmpty())
                return refuse(line, m_gate.refusal());
            if (sqlite3_errcode(m_db.get()) != SQLITE_OK)
                return refuse(line, QString::fromUtf8(sqlite3_errmsg(m_db.get())));
            *tail = end; // only a comment was left
            return StoreError::none();
        }
        if (!m_gate.refusal().isEmpty())
            return refuse(line, m_gate.refusal());
        if (sqlite3_bind_parameter_count(prepared.get()) > 0)
            return refuse(line,
                          QStringLiteral("the statement holds a parameter (?, :name); a dump holds values"));
        switch (m_gate.kind()) {
        case SqlDumpGate::Kind::CreateTable:
            return createTable(std::move(prepared), line);
        case SqlDumpGate::Kind::Insert:
            if (m_gate.object() == directoryTable)
                return insertRows(std::move(prepared), line);
            if (!m_gate.object().startsWith(QLatin1String("sqlite_")))
                ++m_inserts[m_gate.object()];
            return StoreError::none();
        case SqlDumpGate::Kind::CreateIndex:
            m_skippedOthers.append(QStringLiteral("index '%1' on '%2'").arg(m_gate.name(), m_gate.object()));
            return StoreError::none();
        case SqlDumpGate::Kind::CreateTrigger:
            m_skippedOthers.append(
                QStringLiteral("trigger '%1' on '%2'").arg(m_gate.name(), m_gate.object()));
            return StoreError::none();
        case SqlDumpGate::Kind::CreateView:
            m_skippedOthers.append(QStringLiteral("view '%1'").arg(m_gate.name()));
            return StoreError::none();
        case SqlDumpGate::Kind::Ignored:
            return StoreError::none();
        case SqlDumpGate::Kind::None:
            break;
        }
        return refuse(line,
                      QStringLiteral("unknown statement '%1'")
                          .arg(QString::fromUtf8(at, std::min<qsizetype>(*tail - at, 60)).simplified()));
    }

    Statement prepare(const char *at, const char *end, const char **tail)
    {
        m_gate.startStatement(isValuesForm(at, end));
        sqlite3_stmt *prepared = nullptr;
        *tail = end;
        sqlite3_prepare_v2(m_db.get(), at, int(end - at), &prepared, tail);
        return Statement(prepared);
    }

    StoreError step(sqlite3_stmt *statement, int line)
    {
        int code = SQLITE_ROW;
        while (code == SQLITE_ROW)
            code = sqlite3_step(statement);
        if (code == SQLITE_DONE)
            return StoreError::none();
        if (!m_gate.refusal().isEmpty())
            return refuse(line, m_gate.refusal());
        return refuse(line, QString::fromUtf8(sqlite3_errmsg(m_db.get())));
    }

    StoreError createTable(Statement prepared, int line)
    {
        const StoreError created = step(prepared.get(), line);
        if (created.isError() || m_gate.object() == directoryTable)
            return created.isError() ? created : adoptDirectory(line);
        if (!m_gate.object().startsWith(QLatin1String("sqlite_"))
            && !m_skippedTables.contains(m_gate.object()))
            m_skippedTables.append(m_gate.object());
        return StoreError::none();
    }

    // The dump's own CREATE TABLE directory names the columns and their order; the table is
    // then rebuilt with production's column types and no constraints, so a value is judged
    // by the importer's rules, not by whatever the dump's CHECK clauses say.
    StoreError adoptDirectory(int line)
    {
        m_sawCreate = true;
        QStringList columns;
        m_gate.setInternal(true);
        sqlite3_stmt *info = nullptr;
        sqlite3_prepare_v2(m_db.get(), "SELECT name FROM pragma_table_info('directory')", -1, &info, nullptr);
        const Statement owned(info);
        while (info && sqlite3_step(info) == SQLITE_ROW)
            columns.append(
                QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(info, 0))).toLower());
        m_gate.setInternal(false);
        for (const QString &column : std::as_const(columns)) {
            if (!RowSchema::columns().contains(column))
                return refuse(line, QStringLiteral("unknown column '%1' in table 'directory'").arg(column));
        }
        const StoreError dropped = internal("DROP TABLE directory");
        return dropped.isError() ? dropped : createDirectory(columns);
    }

    StoreError createDirectory(const QStringList &columns)
    {
        QStringList definitions;
        for (const QString &column : columns)
            definitions.append(column
                               + (RowSchema::isIntegerColumn(column) ? QStringLiteral(" INTEGER")
                                                                     : QStringLiteral(" TEXT")));
        m_columns = columns;
        m_read.reset();
        m_clear.reset();
        StoreError created =
            internal(QStringLiteral("CREATE TABLE directory (%1)").arg(definitions.join(u',')).toUtf8());
        if (created.isError())
            return created;
        m_gate.setInternal(true);
        sqlite3_stmt *read = nullptr;
        sqlite3_stmt *clear = nullptr;
        sqlite3_prepare_v2(
            m_db.get(),
            QStringLiteral("SELECT %1 FROM directory ORDER BY rowid").arg(columns.join(u',')).toUtf8(), -1,
            &read, nullptr);
        sqlite3_prepare_v2(m_db.get(), "DELETE FROM directory", -1, &clear, nullptr);
        m_gate.setInternal(false);
        m_read.reset(read);
        m_clear.reset(clear);
        if (!m_read || !m_clear)
            return scratchError();
        return StoreError::none();
    }

    StoreError insertRows(Statement prepared, int line)
    {
        StoreError inserted = step(prepared.get(), line);
        if (inserted.isError())
            return inserted;
        m_gate.setInternal(true);
        StoreError error = StoreError::none();
        while (!error.isError() && sqlite3_step(m_read.get()) == SQLITE_ROW)
            error = takeRow(line);
        sqlite3_reset(m_read.get());
        sqlite3_step(m_clear.get());
        sqlite3_reset(m_clear.get());
        m_gate.setInternal(false);
        return error;
    }

    StoreError takeRow(int line)
    {
        if (m_dump.rows.size() >= SqlDumpLimits::maxRows)
            return refuse(
                line,
                QStringLiteral("the dump holds more than %1 directory rows").arg(SqlDumpLimits::maxRows));
        Row row;
        QString message;
        for (int i = 0; i < int(m_columns.size()); ++i) {
            const QString &column = m_columns.at(i);
            QVariant value;
            switch (sqlite3_column_type(m_read.get(), i)) {
            case SQLITE_NULL:
                break;
            case SQLITE_INTEGER:
                value = RowSchema::isIntegerColumn(column)
                            ? QVariant(qint64(sqlite3_column_int64(m_read.get(), i)))
                            : QVariant(text(i));
                break;
            case SQLITE_FLOAT:
                value = RowSchema::isIntegerColumn(column) ? QVariant(sqlite3_column_double(m_read.get(), i))
                                                           : QVariant(text(i));
                break;
            case SQLITE_BLOB:
                return refuse(line,
                              QStringLiteral("column '%1': holds a blob (X'…'); directory columns hold only "
                                             "text and integers")
                                  .arg(column));
            default: {
                const QByteArray bytes(reinterpret_cast<const char *>(sqlite3_column_text(m_read.get(), i)),
                                       sqlite3_column_bytes(m_read.get(), i));
                // char() can spell a surrogate, which is no character.
                if (Utf8Text::firstInvalidByte(bytes) >= 0)
                    return refuse(line, QStringLiteral("column '%1': invalid UTF-8").arg(column));
                value = bytes.isEmpty() ? QStringLiteral("") : QString::fromUtf8(bytes);
            }
            }
            if (!row.setValue(column, value, &message))
                return refuse(line, message);
        }
        m_dump.rows.append(std::move(row));
        m_dump.lines.append(line);
        return StoreError::none();
    }

    QString text(int column) const
    {
        return QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(m_read.get(), column)),
                                 sqlite3_column_bytes(m_read.get(), column));
    }

    StoreError internal(const QByteArray &sql)
    {
        m_gate.setInternal(true);
        const int code = sqlite3_exec(m_db.get(), sql.constData(), nullptr, nullptr, nullptr);
        m_gate.setInternal(false);
        return code == SQLITE_OK ? StoreError::none() : scratchError();
    }

    StoreError scratchError() const
    {
        return StoreError::make(
            StoreError::Kind::Io,
            QStringLiteral("cannot read the dump: %1").arg(QString::fromUtf8(sqlite3_errmsg(m_db.get()))));
    }

    Database m_db;
    SqlDumpGate m_gate;
    Statement m_read;
    Statement m_clear;
    QStringList m_columns;
    bool m_defaultTable = true;
    bool m_sawCreate = false;
    QStringList m_skippedTables;
    QHash<QString, int> m_inserts;
    QStringList m_skippedOthers;
    SqlDump m_dump;
};

} // namespace

StoreResult<SqlDump> SqlDumpReader::read(QIODevice &device)
{
    Database db = openScratch();
    if (!db)
        return StoreError::make(StoreError::Kind::Io, QStringLiteral("cannot open an in-memory database"));
    DumpSession session(std::move(db));
    if (const StoreError started = session.start(); started.isError())
        return started;

    QByteArray pending; // the statement being read, up to its end
    int pendingLine = 1;
    int line = 1;
    bool first = true;
    // One buffer for every line: readLine() into it allocates nothing per line.
    QByteArray buffer(readPiece + 1, Qt::Uninitialized);
    while (!device.atEnd()) {
        const qint64 length = device.readLine(buffer.data(), buffer.size());
        if (length < 0)
            return StoreError::make(
                StoreError::Kind::Io,
                QStringLiteral("line %1: cannot read the dump: %2").arg(line).arg(device.errorString()));
        QByteArrayView piece(buffer.constData(), length);
        // A byte-order mark is legal UTF-8 but no part of the dump.
        if (first && piece.startsWith("\xEF\xBB\xBF"))
            piece = piece.sliced(3);
        first = false;
        if (pending.isEmpty())
            pendingLine = line;
        pending += piece;
        if (piece.endsWith('\n'))
            ++line;
        if (pending.size() > SqlDumpLimits::maxStatementBytes)
            return refuse(pendingLine,
                          QStringLiteral("a statement longer than %1 MiB (no dump row is that long)")
                              .arg(SqlDumpLimits::maxStatementBytes / (1024 * 1024)));
        if (!piece.contains(';') || !sqlite3_complete(pending.constData()))
            continue;
        if (const StoreError error = session.statements(pending, pendingLine); error.isError())
            return error;
        pending.clear();
    }
    if (const qsizetype bad = Utf8Text::firstInvalidByte(pending); bad >= 0)
        return refuse(pendingLine + int(std::count(pending.cbegin(), pending.cbegin() + bad, '\n')),
                      QStringLiteral("invalid UTF-8"));
    int start = pendingLine;
    if (skipBlank(pending.constData(), pending.constData() + pending.size(), start)
        != pending.constData() + pending.size())
        return refuse(start, QStringLiteral("statement is not terminated by ';' (the dump looks truncated)"));
    session.finishSkipped();
    return std::move(session.dump());
}

StoreResult<SqlDump> SqlDumpReader::read(const QByteArray &sql)
{
    QBuffer buffer;
    buffer.setData(sql);
    if (!buffer.open(QIODevice::ReadOnly))
        return StoreError::make(StoreError::Kind::Io, QStringLiteral("cannot read the dump"));
    return read(buffer);
}
