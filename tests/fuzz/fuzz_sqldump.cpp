#include "dispatch/store/sqldumpreader.h"
#include "dispatch/store/sqldumpwriter.h"
#include "tests/fuzz/fuzzcheck.h"

#include <QRegularExpression>

// SqlDumpReader over any bytes, the way `capdeskctl import` reads a hostile dump. It never
// crashes and stays inside SqlDumpLimits (ASan and libFuzzer's -rss_limit_mb watch that).
// All or nothing: a refusal is Invalid (or Io) and names a line of the input, and carries
// no rows; an answer has one line per row, each a line of the input, in order. Reading is
// deterministic, and the rows it takes survive SqlDumpWriter and a second read unchanged.
namespace {

int lineCount(const QByteArray &bytes)
{
    return int(bytes.count('\n')) + 1;
}

bool holdsNul(const QList<Row> &rows)
{
    for (const Row &row : rows) {
        for (const QString *text : {&row.key, &row.type, &row.target, &row.auth, &row.content, &row.updatedAt,
                                    &row.category, &row.allowedCategories, &row.inputSchema, &row.examples,
                                    &row.runner, &row.includes, &row.createdAt}) {
            if (text->contains(QChar(0)))
                return true;
        }
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const StoreResult<SqlDump> first = SqlDumpReader::read(bytes);
    const StoreResult<SqlDump> again = SqlDumpReader::read(bytes);
    FUZZ_CHECK(first.ok() == again.ok(), QStringLiteral("two reads of one input disagree"));

    if (!first.ok()) {
        const StoreError &error = first.error();
        FUZZ_CHECK(error.kind == StoreError::Kind::Invalid || error.kind == StoreError::Kind::Io,
                   error.message);
        FUZZ_CHECK(error.message == again.error().message,
                   error.message + QStringLiteral(" / ") + again.error().message);
        if (error.kind == StoreError::Kind::Io)
            return 0;
        static const QRegularExpression lead(QStringLiteral("^line ([0-9]+): "));
        const QRegularExpressionMatch match = lead.match(error.message);
        FUZZ_CHECK(match.hasMatch(), error.message);
        const int line = match.captured(1).toInt();
        FUZZ_CHECK(line >= 1 && line <= lineCount(bytes), error.message);
        return 0;
    }

    const SqlDump &dump = first.value();
    FUZZ_CHECK(dump.rows.size() == dump.lines.size(),
               QStringLiteral("%1 rows, %2 lines").arg(dump.rows.size()).arg(dump.lines.size()));
    FUZZ_CHECK(dump.rows == again.value().rows, QStringLiteral("two reads of one input took different rows"));
    for (qsizetype i = 0; i < dump.lines.size(); ++i) {
        FUZZ_CHECK(dump.lines.at(i) >= 1 && dump.lines.at(i) <= lineCount(bytes),
                   QString::number(dump.lines.at(i)));
        FUZZ_CHECK(i == 0 || dump.lines.at(i) >= dump.lines.at(i - 1),
                   QStringLiteral("row lines out of order"));
    }
    // SQL text cannot carry a NUL character; char(0) can make one.
    if (dump.rows.isEmpty() || holdsNul(dump.rows))
        return 0;
    const StoreResult<SqlDump> back = SqlDumpReader::read(SqlDumpWriter::write(dump.rows));
    FUZZ_CHECK(back.ok(), back.ok() ? QString() : back.error().message);
    FUZZ_CHECK(back.value().rows == dump.rows, QStringLiteral("the rows changed through SqlDumpWriter"));
    FUZZ_CHECK(back.value().skipped.isEmpty(), back.value().skipped.join(u','));
    return 0;
}
