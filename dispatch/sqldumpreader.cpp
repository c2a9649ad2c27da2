#include "sqldumpreader.h"

#include "rowbatchcheck.h"
#include "rowschema.h"
#include "sqlstatementsplitter.h"

namespace {

const QLatin1String directoryTable("directory");

StoreError refuse(int line, const QString &message)
{
    return StoreError::make(StoreError::Kind::Invalid, QStringLiteral("line %1: %2").arg(line).arg(message));
}

bool isWordChar(QChar c)
{
    const char16_t u = c.unicode();
    if (u < 0x80)
        return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'_'
               || u == u'$';
    return c.isLetterOrNumber();
}

// sqlite3 keeps its own bookkeeping (sqlite_sequence, sqlite_stat1) in a dump; it says
// nothing about the directory.
bool isInternalTable(const QString &table)
{
    return table.startsWith(QLatin1String("sqlite_"));
}

struct SqlValue
{
    enum class Kind { Null, Text, Integer, Real };
    Kind kind = Kind::Null;
    QString text; // the text, or a number as the dump spells it
    qint64 integer = 0;
    double real = 0;
};

// Reads one statement token by token, counting the lines it passes so that an error in
// the third row of a multi-row INSERT names that row's line, not the statement's.
class StatementCursor
{
public:
    StatementCursor(QStringView text, int line) : m_text(text), m_line(line) {}

    int line() const { return m_line; }

    qsizetype position() const { return m_pos; }
    QStringView textSince(qsizetype start) const { return m_text.mid(start, m_pos - start); }

    // Consumes `text` when the statement continues with exactly it.
    bool skipText(QStringView text)
    {
        if (text.isEmpty() || !m_text.mid(m_pos).startsWith(text))
            return false;
        m_line += int(text.count(u'\n'));
        m_pos += text.size();
        return true;
    }

    bool atEnd()
    {
        skipBlank();
        return m_pos >= m_text.size();
    }

    bool symbol(QChar c)
    {
        skipBlank();
        if (m_pos >= m_text.size() || m_text[m_pos] != c)
            return false;
        ++m_pos;
        return true;
    }

    // Consumes `word` when it stands next, whole and in any case.
    bool keyword(QLatin1String word)
    {
        skipBlank();
        const qsizetype end = m_pos + word.size();
        if (end > m_text.size() || (end < m_text.size() && isWordChar(m_text[end]))
            || m_text.mid(m_pos, word.size()).compare(word, Qt::CaseInsensitive) != 0)
            return false;
        m_pos = end;
        return true;
    }

    // A bare or quoted ("…", `…`, […], and '…' where SQLite takes it) name, lowercased
    // because SQL names ignore case; empty when no name stands next.
    QString name()
    {
        skipBlank();
        if (m_pos >= m_text.size())
            return {};
        const QChar open = m_text[m_pos];
        if (open == u'"' || open == u'`' || open == u'[' || open == u'\'')
            return quoted(open == u'[' ? QChar(u']') : open).toLower();
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() && isWordChar(m_text[m_pos]))
            ++m_pos;
        return m_text.mid(start, m_pos - start).toString().toLower();
    }

    // A table name, with a schema prefix ("main"."directory") dropped.
    QString tableName()
    {
        QString table = name();
        if (symbol(u'.'))
            table = name();
        return table;
    }

    void skipIfNotExists()
    {
        const qsizetype start = m_pos;
        const int line = m_line;
        if (keyword(QLatin1String("if")) && keyword(QLatin1String("not")) && keyword(QLatin1String("exists")))
            return;
        m_pos = start;
        m_line = line;
    }

    // Skips the rest of one column definition or table constraint, up to the ',' or ')'
    // that ends it.
    void skipDefinition()
    {
        int depth = 0;
        while (!atEnd()) {
            const QChar c = m_text[m_pos];
            if (c == u'\'' || c == u'"' || c == u'`' || c == u'[') {
                quoted(c == u'[' ? QChar(u']') : c);
                continue;
            }
            if ((c == u',' || c == u')') && depth == 0)
                return;
            if (c == u'(')
                ++depth;
            else if (c == u')')
                --depth;
            ++m_pos;
        }
    }

    // A literal, or the replace()/char() calls `sqlite3 .dump` wraps around text that
    // holds line breaks. `column` names the value in errors.
    StoreResult<SqlValue> value(const QString &column)
    {
        skipBlank();
        const int line = m_line;
        auto bad = [&](const QString &why) {
            return refuse(line, QStringLiteral("column '%1': %2").arg(column, why));
        };
        if (m_pos >= m_text.size())
            return bad(QStringLiteral("the value is missing"));
        const QChar c = m_text[m_pos];
        if (c == u'\'') {
            SqlValue text;
            text.kind = SqlValue::Kind::Text;
            text.text = quoted(c);
            return text;
        }
        if ((c == u'x' || c == u'X') && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == u'\'')
            return bad(QStringLiteral("holds a blob (X'…'); directory columns hold only text and integers"));
        if (c.isDigit() || c == u'-' || c == u'+' || c == u'.')
            return number(bad);

        if (keyword(QLatin1String("null")))
            return SqlValue();
        if (keyword(QLatin1String("true")))
            return SqlValue{SqlValue::Kind::Integer, QStringLiteral("1"), 1, 0};
        if (keyword(QLatin1String("false")))
            return SqlValue{SqlValue::Kind::Integer, QStringLiteral("0"), 0, 0};
        const qsizetype start = m_pos;
        if (keyword(QLatin1String("replace")) && symbol(u'('))
            return replaceCall(column, bad);
        m_pos = start;
        if (keyword(QLatin1String("char")) && symbol(u'('))
            return charCall(column, bad);
        m_pos = start;
        return bad(QStringLiteral("cannot read the value '%1'").arg(m_text.mid(start, 24)));
    }

    // The first line of what is left, for naming a statement or stray text.
    QString snippet()
    {
        skipBlank();
        QStringView rest = m_text.mid(m_pos);
        const qsizetype newline = rest.indexOf(u'\n');
        if (newline >= 0)
            rest = rest.left(newline);
        return rest.left(60).trimmed().toString();
    }

private:
    void skipBlank()
    {
        const qsizetype n = m_text.size();
        while (m_pos < n) {
            const QChar c = m_text[m_pos];
            if (c == u'\n') {
                ++m_line;
                ++m_pos;
            } else if (c.isSpace()) {
                ++m_pos;
            } else if (c == u'-' && m_pos + 1 < n && m_text[m_pos + 1] == u'-') {
                while (m_pos < n && m_text[m_pos] != u'\n')
                    ++m_pos;
            } else if (c == u'/' && m_pos + 1 < n && m_text[m_pos + 1] == u'*') {
                // The splitter has already refused a comment that never closes.
                const qsizetype end = m_text.indexOf(u"*/", m_pos + 2);
                m_line += int(m_text.mid(m_pos, end - m_pos).count(u'\n'));
                m_pos = end + 2;
            } else {
                return;
            }
        }
    }

    // The text between quotes, a doubled closing quote standing for one. Never null, so
    // '' stays an empty string and NULL stays NULL.
    QString quoted(QChar close)
    {
        QString text;
        ++m_pos;
        for (;;) {
            // The splitter has already refused a quote that never closes.
            const qsizetype end = m_text.indexOf(close, m_pos);
            const QStringView piece = m_text.mid(m_pos, end - m_pos);
            m_line += int(piece.count(u'\n'));
            m_pos = end + 1;
            const bool doubled = close != u']' && m_pos < m_text.size() && m_text[m_pos] == close;
            if (text.isNull() && !doubled)
                return piece.isEmpty() ? QStringLiteral("") : piece.toString();
            text += piece;
            if (!doubled)
                return text;
            text += close;
            ++m_pos;
        }
    }

    template<typename Bad>
    StoreResult<SqlValue> number(const Bad &bad)
    {
        const qsizetype start = m_pos;
        const qsizetype n = m_text.size();
        auto digits = [&] {
            const qsizetype from = m_pos;
            while (m_pos < n && m_text[m_pos].isDigit())
                ++m_pos;
            return m_pos > from;
        };
        if (m_text[m_pos] == u'-' || m_text[m_pos] == u'+')
            ++m_pos;
        bool real = false;
        bool any = digits();
        if (m_pos < n && m_text[m_pos] == u'.') {
            ++m_pos;
            real = true;
            any = digits() || any;
        }
        if (any && m_pos < n && (m_text[m_pos] == u'e' || m_text[m_pos] == u'E')) {
            ++m_pos;
            real = true;
            if (m_pos < n && (m_text[m_pos] == u'-' || m_text[m_pos] == u'+'))
                ++m_pos;
            any = digits();
        }
        while (m_pos < n && isWordChar(m_text[m_pos]))
            ++m_pos;
        const QStringView token = m_text.mid(start, m_pos - start);
        SqlValue value;
        value.text = token.toString();
        bool ok = false;
        if (any && !real) {
            value.integer = token.toLongLong(&ok);
            value.kind = SqlValue::Kind::Integer;
        }
        if (any && !ok) {
            // An integer too wide for 64 bits is a REAL to SQLite too.
            value.real = token.toDouble(&ok);
            value.kind = SqlValue::Kind::Real;
        }
        if (!ok)
            return bad(QStringLiteral("cannot read the number '%1'").arg(token));
        return value;
    }

    template<typename Bad>
    StoreResult<QList<SqlValue>> arguments(const QString &column, const Bad &bad)
    {
        QList<SqlValue> values;
        if (symbol(u')'))
            return values;
        do {
            StoreResult<SqlValue> argument = value(column);
            if (!argument.ok())
                return argument.error();
            values.append(std::move(argument.value()));
        } while (symbol(u','));
        if (!symbol(u')'))
            return bad(QStringLiteral("expected ')' after the function's arguments"));
        return values;
    }

    template<typename Bad>
    StoreResult<SqlValue> replaceCall(const QString &column, const Bad &bad)
    {
        const StoreResult<QList<SqlValue>> args = arguments(column, bad);
        if (!args.ok())
            return args.error();
        if (args.value().size() != 3)
            return bad(QStringLiteral("replace() takes 3 arguments"));
        SqlValue result;
        for (const SqlValue &arg : args.value()) {
            if (arg.kind == SqlValue::Kind::Null)
                return result;
        }
        result.kind = SqlValue::Kind::Text;
        result.text = args.value().at(0).text;
        if (!args.value().at(1).text.isEmpty())
            result.text.replace(args.value().at(1).text, args.value().at(2).text);
        return result;
    }

    template<typename Bad>
    StoreResult<SqlValue> charCall(const QString &column, const Bad &bad)
    {
        const StoreResult<QList<SqlValue>> args = arguments(column, bad);
        if (!args.ok())
            return args.error();
        SqlValue result;
        result.kind = SqlValue::Kind::Text;
        result.text = QStringLiteral("");
        for (const SqlValue &arg : args.value()) {
            if (arg.kind != SqlValue::Kind::Integer || arg.integer < 0 || arg.integer > 0x10FFFF)
                return bad(QStringLiteral("char() takes code points"));
            const char32_t codePoint = char32_t(arg.integer);
            result.text += QString::fromUcs4(&codePoint, 1);
        }
        return result;
    }

    QStringView m_text;
    qsizetype m_pos = 0;
    int m_line;
};

// What Row::setValue should see. A text column takes a number as text, spelled as in the
// dump (SQLite's TEXT affinity stores it as text too); an integer column checks the number.
QVariant columnValue(const QString &column, const SqlValue &value)
{
    switch (value.kind) {
    case SqlValue::Kind::Null:
        return {};
    case SqlValue::Kind::Text:
        return value.text;
    case SqlValue::Kind::Integer:
        return RowSchema::isIntegerColumn(column) ? QVariant(value.integer) : QVariant(value.text);
    case SqlValue::Kind::Real:
        return RowSchema::isIntegerColumn(column) ? QVariant(value.real) : QVariant(value.text);
    }
    return {};
}

// Turns a dump's statements into rows, in order, refusing at the first problem.
class DumpParser
{
public:
    explicit DumpParser(qsizetype statementCount)
    {
        // Nearly every statement of a dump is one row.
        m_rows.reserve(statementCount);
        m_lines.reserve(statementCount);
    }

    QList<Row> &rows() { return m_rows; }
    QList<int> &lines() { return m_lines; }

    StoreError statement(const SqlStatement &statement)
    {
        StatementCursor cursor(statement.text, statement.line);
        const int line = statement.line;
        if (cursor.keyword(QLatin1String("pragma")) || cursor.keyword(QLatin1String("begin"))
            || cursor.keyword(QLatin1String("commit")) || cursor.keyword(QLatin1String("end"))
            || cursor.keyword(QLatin1String("analyze")))
            return StoreError::none();
        if (cursor.keyword(QLatin1String("rollback")))
            return refuse(
                line,
                QStringLiteral("the dump ends in ROLLBACK: it was exported from a database with errors"));
        if (cursor.keyword(QLatin1String("create"))) {
            if (!cursor.keyword(QLatin1String("temp")))
                cursor.keyword(QLatin1String("temporary"));
            if (cursor.keyword(QLatin1String("table")))
                return createTable(cursor, line);
            cursor.keyword(QLatin1String("unique"));
            if (cursor.keyword(QLatin1String("index")))
                return createIndex(cursor, line);
        } else if (cursor.keyword(QLatin1String("insert"))) {
            if (cursor.keyword(QLatin1String("into")))
                return insert(cursor, line);
        } else if (cursor.keyword(QLatin1String("delete"))) {
            if (cursor.keyword(QLatin1String("from")) && isInternalTable(cursor.tableName())
                && cursor.atEnd())
                return StoreError::none();
        }
        StatementCursor whole(statement.text, statement.line);
        return refuse(line, QStringLiteral("unknown statement '%1'").arg(whole.snippet()));
    }

private:
    StoreError createTable(StatementCursor &cursor, int line)
    {
        cursor.skipIfNotExists();
        const QString table = cursor.tableName();
        if (table != directoryTable)
            return refuse(line, QStringLiteral("the dump creates table '%1', not 'directory'").arg(table));
        if (m_sawCreate)
            return refuse(line, QStringLiteral("the dump creates table 'directory' twice"));
        const QString unreadable = QStringLiteral("cannot read the columns of table 'directory'");
        if (!cursor.symbol(u'('))
            return refuse(line, unreadable);
        QStringList columns;
        do {
            const bool constraint =
                cursor.keyword(QLatin1String("constraint")) || cursor.keyword(QLatin1String("primary"))
                || cursor.keyword(QLatin1String("unique")) || cursor.keyword(QLatin1String("check"))
                || cursor.keyword(QLatin1String("foreign"));
            if (!constraint) {
                const QString column = cursor.name();
                if (column.isEmpty())
                    return refuse(cursor.line(), unreadable);
                if (!RowSchema::columns().contains(column))
                    return refuse(cursor.line(),
                                  QStringLiteral("unknown column '%1' in table 'directory'").arg(column));
                columns.append(column);
            }
            cursor.skipDefinition();
        } while (cursor.symbol(u','));
        if (!cursor.symbol(u')'))
            return refuse(cursor.line(), unreadable);
        m_columns = columns;
        m_sawCreate = true;
        return StoreError::none();
    }

    static StoreError createIndex(StatementCursor &cursor, int line)
    {
        cursor.skipIfNotExists();
        cursor.tableName(); // the index's own name
        if (!cursor.keyword(QLatin1String("on")))
            return refuse(line, QStringLiteral("cannot read the CREATE INDEX statement"));
        const QString table = cursor.tableName();
        if (table != directoryTable)
            return refuse(line, QStringLiteral("the dump indexes table '%1', not 'directory'").arg(table));
        return StoreError::none();
    }

    StoreError insert(StatementCursor &cursor, int line)
    {
        const QString table = cursor.tableName();
        if (isInternalTable(table))
            return StoreError::none();
        if (table != directoryTable)
            return refuse(line, QStringLiteral("the dump writes table '%1', not 'directory'").arg(table));
        const bool hasColumnList = cursor.symbol(u'(');
        // Every INSERT of a dump names the same columns: read the list once.
        if (hasColumnList && !cursor.skipText(m_listText)) {
            const qsizetype start = cursor.position();
            const StoreError error = columnList(cursor);
            if (error.isError())
                return error;
            m_listText = cursor.textSince(start).toString();
        }
        if (!cursor.keyword(QLatin1String("values")))
            return refuse(line, QStringLiteral("only INSERT … VALUES (…) can be imported"));
        const QStringList &columns = hasColumnList ? m_listed : m_columns;
        do {
            const StoreError error = valuesRow(cursor, columns);
            if (error.isError())
                return error;
        } while (cursor.symbol(u','));
        if (!cursor.atEnd())
            return refuse(cursor.line(),
                          QStringLiteral("unexpected text after the values: '%1'").arg(cursor.snippet()));
        return StoreError::none();
    }

    StoreError columnList(StatementCursor &cursor)
    {
        m_listed.clear();
        do {
            const QString column = cursor.name();
            if (column.isEmpty())
                return refuse(cursor.line(), QStringLiteral("cannot read the column list"));
            if (!RowSchema::columns().contains(column))
                return refuse(cursor.line(), QStringLiteral("unknown column '%1'").arg(column));
            if (m_listed.contains(column))
                return refuse(cursor.line(), QStringLiteral("column '%1' is named twice").arg(column));
            m_listed.append(column);
        } while (cursor.symbol(u','));
        if (!cursor.symbol(u')'))
            return refuse(cursor.line(), QStringLiteral("cannot read the column list"));
        return StoreError::none();
    }

    StoreError valuesRow(StatementCursor &cursor, const QStringList &columns)
    {
        if (!cursor.symbol(u'('))
            return refuse(cursor.line(), QStringLiteral("expected '(' and a row of values"));
        const int line = cursor.line();
        m_values.clear();
        if (!cursor.symbol(u')')) {
            do {
                const qsizetype index = m_values.size();
                const QString column =
                    index < columns.size() ? columns.at(index) : QStringLiteral("value %1").arg(index + 1);
                StoreResult<SqlValue> value = cursor.value(column);
                if (!value.ok())
                    return value.error();
                m_values.append(std::move(value.value()));
            } while (cursor.symbol(u','));
            if (!cursor.symbol(u')'))
                return refuse(cursor.line(), QStringLiteral("expected ',' or ')' after a value"));
        }
        if (m_values.size() != columns.size())
            return refuse(
                line, QStringLiteral("%1 values for %2 columns").arg(m_values.size()).arg(columns.size()));

        Row row;
        QString message;
        for (qsizetype i = 0; i < columns.size(); ++i) {
            if (!row.setValue(columns.at(i), columnValue(columns.at(i), m_values.at(i)), &message))
                return refuse(line, message);
        }
        const StoreError error = m_check.add(row, line);
        if (error.isError())
            return error;
        m_rows.append(std::move(row));
        m_lines.append(line);
        return StoreError::none();
    }

    // Without a CREATE TABLE, or before it, a column-less INSERT is in production order.
    QStringList m_columns = RowSchema::columns();
    bool m_sawCreate = false;
    QStringList m_listed; // the columns the last INSERT named
    QString m_listText; // …as it spelled them, up to the ')'
    RowBatchCheck m_check;
    QList<SqlValue> m_values;
    QList<Row> m_rows;
    QList<int> m_lines;
};

} // namespace

StoreResult<QList<Row>> SqlDumpReader::read(const QString &sqlText, QList<int> *rowLines)
{
    const StoreResult<QList<SqlStatement>> statements = SqlStatementSplitter::split(sqlText);
    if (!statements.ok())
        return statements.error();
    DumpParser parser(statements.value().size());
    for (const SqlStatement &statement : statements.value()) {
        const StoreError error = parser.statement(statement);
        if (error.isError())
            return error;
    }
    if (rowLines)
        *rowLines = std::move(parser.lines());
    return std::move(parser.rows());
}
