#include "fixturegenerator.h"
#include "sqldumpreader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString productionTable =
    QStringLiteral("CREATE TABLE directory (\n"
                   "  key        TEXT PRIMARY KEY,\n"
                   "  type       TEXT NOT NULL CHECK (type IN ('fn','http','agent','flow')),\n"
                   "  target     TEXT,\n"
                   "  auth       TEXT,\n"
                   "  content    TEXT,\n"
                   "  updated_at TEXT NOT NULL\n"
                   ", category TEXT, allowed_categories TEXT, seq INTEGER, enabled INTEGER DEFAULT 1,\n"
                   "  planner_visible INTEGER DEFAULT 1, planner_rank INTEGER DEFAULT 100,\n"
                   "  input_schema TEXT, examples TEXT, sensitive INTEGER DEFAULT 0, runner TEXT,\n"
                   "  includes TEXT, created_at TEXT);\n");

const QString allColumns = QStringLiteral(
    "key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,"
    "planner_rank,input_schema,examples,sensitive,runner,includes,created_at");

// The generator's INSERT for a row of 18 values.
QString generatorInsert(const QString &values)
{
    return QStringLiteral("INSERT INTO directory (%1) VALUES(%2);\n").arg(allColumns, values);
}

QString text(const char *utf8)
{
    return QString::fromUtf8(utf8);
}

} // namespace

class TestSqlDumpReader : public QObject
{
    Q_OBJECT

private slots:
    void reads_data();
    void reads();
    void refuses_data();
    void refuses();
    void readsGeneratedDump();
};

void TestSqlDumpReader::reads_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QList<int>>("lines");
    QTest::addColumn<QString>("column"); // checked on the first row
    QTest::addColumn<QVariant>("value");

    const QString generatorRow =
        generatorInsert(text("'NOW','fn','now',NULL,'# Return the time.\n# ARGS: none\nit''s \xe2\x80\x94 "
                             "ok','2026-07-26T04:36:19.832Z',"
                             "'time',NULL,NULL,1,1,100,NULL,NULL,0,NULL,NULL,'2026-07-26T04:36:19.832Z'"));
    QTest::addRow("generator: raw newlines and doubled quotes")
        << QStringLiteral("PRAGMA defer_foreign_keys=TRUE;\n") + productionTable + generatorRow
        << QStringList{QStringLiteral("NOW")} << QList<int>{13} << QStringLiteral("content")
        << QVariant(text("# Return the time.\n# ARGS: none\nit's \xe2\x80\x94 ok"));
    QTest::addRow("generator: NULL text stays NULL")
        << productionTable + generatorRow << QStringList{QStringLiteral("NOW")} << QList<int>{12}
        << QStringLiteral("auth") << QVariant();
    QTest::addRow("generator: '' stays an empty string")
        << productionTable
               + generatorInsert(
                   QStringLiteral("'T','http','GET https://x.example','','','2026-01-01T00:00:00.000Z',"
                                  "NULL,NULL,NULL,1,1,100,NULL,NULL,0,NULL,NULL,NULL"))
        << QStringList{QStringLiteral("T")} << QList<int>{12} << QStringLiteral("auth")
        << QVariant(QStringLiteral(""));

    QTest::addRow("sqlite3 .dump: replace() and char() for newlines, own column order")
        << QStringLiteral(
               "PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n"
               "CREATE TABLE directory (key TEXT PRIMARY KEY, type TEXT, content TEXT, seq INTEGER);\n"
               "INSERT INTO directory "
               "VALUES('A','fn',replace(replace('x\\r\\ny','\\r',char(13)),'\\n',char(10)),-3);\n"
               "ANALYZE sqlite_schema;\n"
               "INSERT INTO sqlite_stat1 VALUES('directory','ix','3 2');\n"
               "CREATE INDEX ix ON directory(type);\nCOMMIT;\n")
        << QStringList{QStringLiteral("A")} << QList<int>{4} << QStringLiteral("content")
        << QVariant(QStringLiteral("x\r\ny"));
    QTest::addRow("sqlite3 .dump: negative integer")
        << QStringLiteral(
               "CREATE TABLE directory (key TEXT PRIMARY KEY, type TEXT, content TEXT, seq INTEGER);\n"
               "INSERT INTO directory VALUES('A','fn',NULL,-3);")
        << QStringList{QStringLiteral("A")} << QList<int>{2} << QStringLiteral("seq") << QVariant(qint64(-3));
    QTest::addRow("python iterdump: quoted table, production order without CREATE TABLE")
        << QStringLiteral(
               "BEGIN TRANSACTION;\nINSERT INTO \"directory\" VALUES('A','agent','grok-4.3',NULL,'line 1\n"
               "line 2','2026-01-01T00:00:00.000Z','c',NULL,7,0,1,50,NULL,NULL,1,NULL,'B,C',NULL);\nCOMMIT;")
        << QStringList{QStringLiteral("A")} << QList<int>{2} << QStringLiteral("includes")
        << QVariant(QStringLiteral("B,C"));
    QTest::addRow("D1 export: quoted table and columns") << QStringLiteral(
        "PRAGMA defer_foreign_keys=TRUE;\nCREATE TABLE IF NOT EXISTS \"directory\" (\"key\" TEXT PRIMARY "
        "KEY, "
        "\"type\" TEXT NOT NULL, \"updated_at\" TEXT NOT NULL, \"planner_rank\" INTEGER DEFAULT 100);\n"
        "INSERT INTO \"directory\" (\"key\",\"type\",\"updated_at\",\"planner_rank\") "
        "VALUES('A','flow','2026-01-01T00:00:00.000Z',200);\n")
                                                         << QStringList{QStringLiteral("A")} << QList<int>{3}
                                                         << QStringLiteral("planner_rank")
                                                         << QVariant(qint64(200));
    QTest::addRow("several rows in one INSERT, each on its line")
        << QStringLiteral(
               "INSERT INTO directory (key, type) VALUES\n('A', 'fn'),\n('B', 'http'),\n('C', 'flow');")
        << QStringList{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")} << QList<int>{2, 3, 4}
        << QStringLiteral("type") << QVariant(QStringLiteral("fn"));
    QTest::addRow("a real that is a whole number in an integer column")
        << QStringLiteral("INSERT INTO directory (key, type, planner_rank) VALUES ('A', 'fn', 1.5e2);")
        << QStringList{QStringLiteral("A")} << QList<int>{1} << QStringLiteral("planner_rank")
        << QVariant(qint64(150));
    QTest::addRow("a number in a text column is text")
        << QStringLiteral("INSERT INTO directory (key, type, category) VALUES ('A', 'fn', 42);")
        << QStringList{QStringLiteral("A")} << QList<int>{1} << QStringLiteral("category")
        << QVariant(QStringLiteral("42"));
    QTest::addRow("TRUE and FALSE") << QStringLiteral(
        "INSERT INTO directory (key, type, enabled, sensitive) VALUES ('A', 'fn', FALSE, TRUE);")
                                    << QStringList{QStringLiteral("A")} << QList<int>{1}
                                    << QStringLiteral("enabled") << QVariant(qint64(0));
    QTest::addRow("NULL in a defaulted column is its default")
        << QStringLiteral("INSERT INTO directory (key, type, planner_rank) VALUES ('A', 'fn', NULL);")
        << QStringList{QStringLiteral("A")} << QList<int>{1} << QStringLiteral("planner_rank")
        << QVariant(qint64(100));
    QTest::addRow("comments between and inside statements")
        << QStringLiteral("-- exported by hand\n/* two\n lines */\nINSERT INTO directory -- the table\n"
                          "(key, type) VALUES ('A', /* fn */ 'fn');")
        << QStringList{QStringLiteral("A")} << QList<int>{5} << QStringLiteral("type")
        << QVariant(QStringLiteral("fn"));
    QTest::addRow("names in any case, schema prefix")
        << QStringLiteral("insert into MAIN.Directory (KEY, Type) values ('A', 'fn');")
        << QStringList{QStringLiteral("A")} << QList<int>{1} << QStringLiteral("key")
        << QVariant(QStringLiteral("A"));
    QTest::addRow("char() spells any code point")
        << QStringLiteral(
               "INSERT INTO directory (key, type, content) VALUES ('A', 'fn', char(72, 105, 128512));")
        << QStringList{QStringLiteral("A")} << QList<int>{1} << QStringLiteral("content")
        << QVariant(text("Hi\xf0\x9f\x98\x80"));
    QTest::addRow("an empty dump has no rows") << QStringLiteral("BEGIN TRANSACTION;\nCOMMIT;\n")
                                               << QStringList() << QList<int>() << QString() << QVariant();
}

void TestSqlDumpReader::reads()
{
    QFETCH(QString, sql);
    QFETCH(QStringList, keys);
    QFETCH(QList<int>, lines);
    QFETCH(QString, column);
    QFETCH(QVariant, value);

    QList<int> rowLines;
    const StoreResult<QList<Row>> rows = SqlDumpReader::read(sql, &rowLines);
    QVERIFY2(rows.ok(), qPrintable(rows.error().message));
    QStringList gotKeys;
    for (const Row &row : rows.value())
        gotKeys.append(row.key);
    QCOMPARE(gotKeys, keys);
    QCOMPARE(rowLines, lines);
    if (column.isEmpty())
        return;
    const QVariant got = rows.value().constFirst().value(column);
    QCOMPARE(got.isNull(), value.isNull());
    QCOMPARE(got, value);
}

void TestSqlDumpReader::refuses_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("message");

    const QString row = QStringLiteral("INSERT INTO directory (key, type) VALUES ('%1', '%2');\n");
    QTest::addRow("cut off mid-statement")
        << productionTable + row.arg(QStringLiteral("A"), QStringLiteral("fn"))
               + QStringLiteral("INSERT INTO directory (key")
        << QStringLiteral("line 13: statement is not terminated by ';' (the dump looks truncated)");
    QTest::addRow("cut off mid-string")
        << QStringLiteral("BEGIN;\nINSERT INTO directory (key, type, content) VALUES ('A', 'fn', 'half")
        << QStringLiteral("line 2: unterminated quoted text");
    QTest::addRow("INSERT into another table")
        << row.arg(QStringLiteral("A"), QStringLiteral("fn"))
               + QStringLiteral("INSERT INTO receipts VALUES (1);")
        << QStringLiteral("line 2: the dump writes table 'receipts', not 'directory'");
    QTest::addRow("CREATE TABLE of another table")
        << QStringLiteral("BEGIN;\nCREATE TABLE \"d1_migrations\" (id INTEGER PRIMARY KEY);")
        << QStringLiteral("line 2: the dump creates table 'd1_migrations', not 'directory'");
    QTest::addRow("index on another table")
        << QStringLiteral("CREATE INDEX ix ON receipts(key);")
        << QStringLiteral("line 1: the dump indexes table 'receipts', not 'directory'");
    QTest::addRow("unknown statement") << QStringLiteral("BEGIN;\n\nDROP TABLE directory;")
                                       << QStringLiteral("line 3: unknown statement 'DROP TABLE directory'");
    QTest::addRow("DELETE from the directory")
        << QStringLiteral("DELETE FROM directory;")
        << QStringLiteral("line 1: unknown statement 'DELETE FROM directory'");
    QTest::addRow("fewer values than columns")
        << QStringLiteral("\nINSERT INTO directory (key, type, target) VALUES ('A', 'fn');")
        << QStringLiteral("line 2: 2 values for 3 columns");
    QTest::addRow("more values than the production columns") << QStringLiteral(
        "INSERT INTO directory VALUES ('A', 'fn', NULL, NULL, NULL, 'T', NULL, NULL, NULL, 1, 1, 100, "
        "NULL, NULL, 0, NULL, NULL, NULL, 'extra');") << QStringLiteral("line 1: 19 values for 18 columns");
    QTest::addRow("unknown column in the INSERT")
        << QStringLiteral("INSERT INTO directory (key, type, colour) VALUES ('A', 'fn', 'red');")
        << QStringLiteral("line 1: unknown column 'colour'");
    QTest::addRow("unknown column in the CREATE TABLE")
        << QStringLiteral("CREATE TABLE directory (key TEXT PRIMARY KEY,\n type TEXT,\n colour TEXT);")
        << QStringLiteral("line 3: unknown column 'colour' in table 'directory'");
    QTest::addRow("type outside the four")
        << productionTable + row.arg(QStringLiteral("A"), QStringLiteral("lambda"))
        << QStringLiteral("line 12: row 1 ('A') has type 'lambda', not one of fn, http, agent, flow");
    QTest::addRow("type NULL") << QStringLiteral("INSERT INTO directory (key, type) VALUES ('A', NULL);")
                               << QStringLiteral("line 1: row 1 ('A') has type NULL");
    QTest::addRow("duplicate key names both lines")
        << row.arg(QStringLiteral("A"), QStringLiteral("fn"))
               + row.arg(QStringLiteral("B"), QStringLiteral("fn"))
               + row.arg(QStringLiteral("A"), QStringLiteral("http"))
        << QStringLiteral("line 3: key 'A' appears twice in the file (lines 1 and 3)");
    QTest::addRow("missing key") << QStringLiteral("INSERT INTO directory (type) VALUES ('fn');")
                                 << QStringLiteral("line 1: row 1 has no key");
    QTest::addRow("NULL key") << row.arg(QStringLiteral("A"), QStringLiteral("fn"))
                                     + QStringLiteral(
                                         "INSERT INTO directory (key, type) VALUES (NULL, 'fn');")
                              << QStringLiteral("line 2: row 2 has no key");
    QTest::addRow("blob") << QStringLiteral(
        "INSERT INTO directory (key, type, content) VALUES ('A', 'fn', X'00ff');")
                          << QStringLiteral("line 1: column 'content': holds a blob");
    QTest::addRow("text in an integer column")
        << QStringLiteral("INSERT INTO directory (key, type, seq) VALUES ('A', 'fn', 'abc');")
        << QStringLiteral("line 1: field 'seq' must be an integer");
    QTest::addRow("boolean out of range")
        << QStringLiteral("INSERT INTO directory (key, type, enabled) VALUES ('A', 'fn', 2);")
        << QStringLiteral("line 1: field 'enabled' must be 0 or 1");
    QTest::addRow("bad row in a multi-row INSERT names its line")
        << QStringLiteral("INSERT INTO directory (key, type) VALUES\n('A', 'fn'),\n('B', 'soap');")
        << QStringLiteral("line 3: row 2 ('B') has type 'soap'");
    QTest::addRow("a dump that gave up") << QStringLiteral("BEGIN TRANSACTION;\nROLLBACK; -- due to errors\n")
                                         << QStringLiteral("line 2: the dump ends in ROLLBACK");
    QTest::addRow("INSERT … SELECT") << QStringLiteral(
        "INSERT INTO directory (key, type) SELECT key, type FROM old;")
                                     << QStringLiteral("line 1: only INSERT … VALUES (…) can be imported");
    QTest::addRow("unreadable value")
        << QStringLiteral("INSERT INTO directory (key, type) VALUES ('A', lower('FN'));")
        << QStringLiteral("line 1: column 'type': cannot read the value");
    QTest::addRow("text after the values")
        << QStringLiteral("INSERT INTO directory (key, type) VALUES ('A', 'fn') ON CONFLICT DO NOTHING;")
        << QStringLiteral("line 1: unexpected text after the values");
}

void TestSqlDumpReader::refuses()
{
    QFETCH(QString, sql);
    QFETCH(QString, message);

    const StoreResult<QList<Row>> rows = SqlDumpReader::read(sql);
    QVERIFY(!rows.ok());
    QCOMPARE(rows.error().kind, StoreError::Kind::Invalid);
    QVERIFY2(rows.error().message.startsWith(message), qPrintable(rows.error().message));
}

void TestSqlDumpReader::readsGeneratedDump()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("directory.sql"));
    const QString failure = FixtureGenerator::makeSqlDump(path, 891);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));

    QList<int> lines;
    const StoreResult<QList<Row>> rows = SqlDumpReader::read(QString::fromUtf8(file.readAll()), &lines);
    QVERIFY2(rows.ok(), qPrintable(rows.error().message));
    QCOMPARE(rows.value().size(), 891);
    QCOMPARE(lines.constFirst(), 13); // the PRAGMA and the 11-line CREATE TABLE come first

    const Row &now = rows.value().at(0);
    QCOMPARE(now.key, QStringLiteral("NOW"));
    QCOMPARE(now.type, QStringLiteral("fn"));
    QCOMPARE(now.target, QStringLiteral("now"));
    QVERIFY(now.auth.isNull());
    QVERIFY(now.content.startsWith(QStringLiteral("# Return the current time")));
    QVERIFY(now.content.contains(text("\xe2\x80\x94"))); // the em dash survives as UTF-8

    const auto find = [&](const QString &key) {
        for (const Row &row : rows.value()) {
            if (row.key == key)
                return row;
        }
        return Row();
    };
    const Row temperature = find(QStringLiteral("ZZ_TEST_TEMPERATURE"));
    QCOMPARE(temperature.type, QStringLiteral("http"));
    QVERIFY(!temperature.auth.isNull());
    QVERIFY(temperature.auth.isEmpty());
    QCOMPARE(temperature.examples, QStringLiteral("[\"37.77|-122.42\"]"));
    QCOMPARE(find(QStringLiteral("ROUTER")).includes,
             QStringLiteral("BLOCK_VOICE,BLOCK_IMESSAGE,BLOCK_EMOJI,BLOCK_ROUTING,BLOCK_ARA"));
    QVERIFY(!find(QStringLiteral("BLOCK_VOICE")).plannerVisible);
    QVERIFY(find(QStringLiteral("DIR_PATCH")).content.endsWith(QStringLiteral("\n$2+")));
}

QTEST_GUILESS_MAIN(TestSqlDumpReader)
#include "tst_sqldumpreader.moc"
