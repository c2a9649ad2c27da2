#include "dispatch/store/sqldumpreader.h"
#include "dispatch/store/sqldumpwriter.h"
#include "dispatch/store/sqlstatementsplitter.h"
#include "tests/support/fixturegenerator.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

namespace {

Row plainRow(const QString &key)
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.updatedAt = QStringLiteral("2026-07-26T04:36:19.832Z");
    return row;
}

} // namespace

class TestSqlDumpWriter : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void writesProductionShape();
    void rewritesGeneratedDumpByteForByte();
    void sqliteLoadsTheDump();
};

void TestSqlDumpWriter::roundTrip_data()
{
    QTest::addColumn<Row>("row");

    QTest::addRow("defaults, every text NULL") << plainRow(QStringLiteral("A"));

    Row empty = plainRow(QStringLiteral("EMPTY"));
    empty.target = QStringLiteral("");
    empty.auth = QStringLiteral("");
    empty.content = QStringLiteral("");
    QTest::addRow("empty strings are not NULL") << empty;

    Row quotes = plainRow(QStringLiteral("QUOTES"));
    quotes.content = QStringLiteral("it's '' ''' \"x\";\n-- not a comment\n/* nor this */ end;");
    QTest::addRow("quotes, semicolons and comment marks in text") << quotes;

    Row lines = plainRow(QStringLiteral("LINES"));
    lines.content = QStringLiteral("\n\r\nfirst\r\n\tsecond\n\n");
    QTest::addRow("line breaks of every kind, leading and trailing") << lines;

    Row unicode = plainRow(QStringLiteral("UNICODE"));
    unicode.content = QString::fromUtf8("caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80 \xe4\xb8\xad");
    QTest::addRow("non-ASCII text") << unicode;

    Row full = plainRow(QStringLiteral("FULL"));
    full.type = QStringLiteral("http");
    full.target = QStringLiteral("PATCH https://x.example/api/directory/$1");
    full.auth = QStringLiteral("bearer:TERMINAL_KEY");
    full.content = QStringLiteral("# WHAT: Edit.\n$2+");
    full.category = QStringLiteral("tools");
    full.allowedCategories = QStringLiteral("tools,grok");
    full.seq = -42;
    full.enabled = false;
    full.plannerVisible = false;
    full.plannerRank = 9007199254740993LL;
    full.inputSchema = QStringLiteral("{\"type\":\"object\"}");
    full.examples = QStringLiteral("[\"ROUTER|{\\\"content\\\":\\\"a|b\\\"}\"]");
    full.sensitive = true;
    full.runner = QStringLiteral("edge");
    full.includes = QStringLiteral("BLOCK_VOICE,BLOCK_ARA");
    full.createdAt = QStringLiteral("2026-01-01T00:00:00.000Z");
    QTest::addRow("every column set, integers at the edges") << full;

    Row zero = plainRow(QStringLiteral("ZERO"));
    zero.seq = 0;
    zero.plannerRank = -1;
    QTest::addRow("seq 0 is not NULL") << zero;
}

void TestSqlDumpWriter::roundTrip()
{
    QFETCH(Row, row);

    const QList<Row> rows{row, plainRow(QStringLiteral("NEXT"))};
    const StoreResult<SqlDump> dump = SqlDumpReader::read(SqlDumpWriter::write(rows));
    QVERIFY2(dump.ok(), qPrintable(dump.error().message));
    const StoreResult<QList<Row>> back = dump.value().rows;
    QCOMPARE(back.value().size(), rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        for (const QString &column :
             {QStringLiteral("target"), QStringLiteral("auth"), QStringLiteral("content")})
            QCOMPARE(back.value().at(i).value(column).isNull(), rows.at(i).value(column).isNull());
        QVERIFY2(back.value().at(i) == rows.at(i), qPrintable(rows.at(i).key));
    }
}

void TestSqlDumpWriter::writesProductionShape()
{
    Row row = plainRow(QStringLiteral("A"));
    row.auth = QStringLiteral("");
    row.content = QStringLiteral("it's");
    const QByteArray dump = SqlDumpWriter::write({row});
    QVERIFY(dump.startsWith(
        "PRAGMA defer_foreign_keys=TRUE;\nCREATE TABLE directory (\n  key        TEXT PRIMARY KEY,\n"));
    QVERIFY(dump.contains("  includes TEXT, created_at TEXT);\n"));
    QVERIFY(dump.endsWith(
        "INSERT INTO directory "
        "(key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,"
        "planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) "
        "VALUES('A','fn',NULL,'','it''s','2026-07-26T04:36:19.832Z',NULL,NULL,NULL,1,1,100,NULL,NULL,0,NULL,"
        "NULL,NULL);\n"));
}

void TestSqlDumpWriter::rewritesGeneratedDumpByteForByte()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("directory.sql"));
    const QString failure = FixtureGenerator::makeSqlDump(path, 891);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray generated = file.readAll();

    const StoreResult<SqlDump> dump = SqlDumpReader::read(generated);
    QVERIFY2(dump.ok(), qPrintable(dump.error().message));
    const StoreResult<QList<Row>> rows = dump.value().rows;
    QCOMPARE(rows.value().size(), 891);
    const QByteArray written = SqlDumpWriter::write(rows.value());
    QCOMPARE(written.size(), generated.size());
    QVERIFY(written == generated);
}

void TestSqlDumpWriter::sqliteLoadsTheDump()
{
    Row first = plainRow(QStringLiteral("A"));
    first.content = QStringLiteral("it's;\nthere");
    Row second = plainRow(QStringLiteral("B"));
    second.type = QStringLiteral("flow");
    second.seq = 3;
    const QByteArray dump = SqlDumpWriter::write({first, second});
    const StoreResult<QList<SqlStatement>> statements = SqlStatementSplitter::split(QString::fromUtf8(dump));
    QVERIFY2(statements.ok(), qPrintable(statements.error().message));

    const QString connection = QStringLiteral("writer-test");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(QStringLiteral(":memory:"));
        QVERIFY(db.open());
        QSqlQuery query(db);
        for (const SqlStatement &statement : statements.value())
            QVERIFY2(query.exec(statement.text), qPrintable(query.lastError().text()));
        QVERIFY(query.exec(QStringLiteral("SELECT content, seq, enabled FROM directory ORDER BY key")));
        QVERIFY(query.next());
        QCOMPARE(query.value(0).toString(), first.content);
        QVERIFY(query.value(1).isNull());
        QCOMPARE(query.value(2).toLongLong(), qint64(1));
        QVERIFY(query.next());
        QCOMPARE(query.value(1).toLongLong(), qint64(3));
        QVERIFY(!query.next());
        // The production CHECK constraint came along with the table.
        QVERIFY(!query.exec(
            QStringLiteral("INSERT INTO directory (key, type, updated_at) VALUES ('C', 'soap', 'x')")));
    }
    QSqlDatabase::removeDatabase(connection);
}

QTEST_GUILESS_MAIN(TestSqlDumpWriter)
#include "tst_sqldumpwriter.moc"
