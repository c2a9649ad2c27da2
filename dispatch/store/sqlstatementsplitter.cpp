#include "dispatch/store/sqlstatementsplitter.h"

#include <QRegularExpression>

namespace {

// A SQLite CREATE TRIGGER body (BEGIN … END) holds ';'s of its own; the statement ends at
// "END;". A PostgreSQL trigger names a function instead and ends at its first ';'.
bool needsTriggerEnd(QStringView statement)
{
    // Checked at every ';' of a dump, so the regular expressions only see CREATE statements.
    if (!statement.startsWith(QLatin1String("create"), Qt::CaseInsensitive))
        return false;
    static const QRegularExpression trigger(
        QStringLiteral(R"(^\s*CREATE\s+(TEMP\s+|TEMPORARY\s+)?TRIGGER\b)"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression body(QStringLiteral(R"(\bBEGIN\b)"),
                                         QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression end(QStringLiteral(R"(\bEND\s*$)"),
                                        QRegularExpression::CaseInsensitiveOption);
    return trigger.match(statement).hasMatch() && body.match(statement).hasMatch()
           && !end.match(statement).hasMatch();
}

} // namespace

StoreResult<QList<SqlStatement>> SqlStatementSplitter::split(QStringView sql)
{
    QList<SqlStatement> statements;
    const int n = int(sql.size());
    int line = 1;
    int start = 0; // first character of the current statement, past leading comments
    int startLine = 1;
    bool inStatement = false;
    int i = 0;

    auto invalid = [](const QString &message) {
        return StoreError::make(StoreError::Kind::Invalid, message);
    };

    while (i < n) {
        const QChar c = sql[i];
        const bool comment =
            (c == u'-' && i + 1 < n && sql[i + 1] == u'-') || (c == u'/' && i + 1 < n && sql[i + 1] == u'*');
        if (!inStatement && !c.isSpace() && !comment && c != u';') {
            inStatement = true;
            startLine = line;
            start = i;
        }
        if (c == u'\n') {
            ++line;
            ++i;
        } else if (c == u'\'' || c == u'"' || c == u'`' || c == u'[') {
            const QChar close = c == u'[' ? QChar(u']') : c;
            const int openLine = line;
            ++i;
            // Quoted text is most of a dump's bytes: jump from quote to quote.
            for (;;) {
                const qsizetype end = sql.indexOf(close, i);
                if (end < 0)
                    return invalid(
                        QStringLiteral("line %1: unterminated quoted text (the dump looks truncated)")
                            .arg(openLine));
                line += int(sql.mid(i, end - i).count(u'\n'));
                i = int(end) + 1;
                if (close == u']' || i >= n || sql[i] != close)
                    break;
                ++i; // doubled quote is an escaped quote
            }
        } else if (c == u'$' && i + 1 < n && sql[i + 1] == u'$') {
            // A PostgreSQL function body, dollar-quoted: its ';'s belong to it.
            const int openLine = line;
            const qsizetype end = sql.indexOf(u"$$", i + 2);
            if (end < 0)
                return invalid(QStringLiteral("line %1: unterminated $$ body").arg(openLine));
            line += int(sql.mid(i, end - i).count(u'\n'));
            i = int(end) + 2;
        } else if (c == u'-' && i + 1 < n && sql[i + 1] == u'-') {
            while (i < n && sql[i] != u'\n')
                ++i;
        } else if (c == u'/' && i + 1 < n && sql[i + 1] == u'*') {
            const int openLine = line;
            const qsizetype end = sql.indexOf(u"*/", i + 2);
            if (end < 0)
                return invalid(QStringLiteral("line %1: unterminated comment").arg(openLine));
            line += int(sql.mid(i, end - i).count(u'\n'));
            i = int(end) + 2;
        } else if (c == u';') {
            const QStringView text = sql.mid(start, i - start);
            ++i;
            if (!inStatement || needsTriggerEnd(text))
                continue;
            statements.append({text.trimmed().toString(), startLine});
            inStatement = false;
        } else {
            ++i;
        }
    }
    if (inStatement)
        return invalid(
            QStringLiteral("line %1: statement is not terminated by ';' (the dump looks truncated)")
                .arg(startLine));
    return statements;
}
