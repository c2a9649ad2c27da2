#include "dispatch/store/sqldumpreader.h"
#include "tests/support/fixturegenerator.h"

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
    void takesTheDirectoryFromAWholeDatabase();
    void refusesHostileDumps_data();
    void refusesHostileDumps();
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
    QTest::addRow("several rows in one INSERT, all on the statement's line")
        << QStringLiteral(
               "INSERT INTO directory (key, type) VALUES\n('A', 'fn'),\n('B', 'http'),\n('C', 'flow');")
        << QStringList{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")} << QList<int>{1, 1, 1}
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
        << QStringList{QStringLiteral("A")} << QList<int>{4} << QStringLiteral("type")
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

    const StoreResult<SqlDump> dump = SqlDumpReader::read(sql.toUtf8());
    QVERIFY2(dump.ok(), qPrintable(dump.error().message));
    QStringList gotKeys;
    for (const Row &row : dump.value().rows)
        gotKeys.append(row.key);
    QCOMPARE(gotKeys, keys);
    QCOMPARE(dump.value().lines, lines);
    if (column.isEmpty())
        return;
    const QVariant got = dump.value().rows.constFirst().value(column);
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
        << QStringLiteral("line 2: statement is not terminated by ';' (the dump looks truncated)");
    QTest::addRow("INSERT into a table the dump never created")
        << row.arg(QStringLiteral("A"), QStringLiteral("fn"))
               + QStringLiteral("INSERT INTO receipts VALUES (1);")
        << QStringLiteral("line 2: no such table: receipts");
    QTest::addRow("index on a table the dump never created")
        << QStringLiteral("CREATE INDEX ix ON receipts(key);")
        << QStringLiteral("line 1: no such table: main.receipts");
    QTest::addRow("DROP") << QStringLiteral("BEGIN;\n\nDROP TABLE directory;")
                          << QStringLiteral("line 3: DROP is not allowed in a dump");
    QTest::addRow("DELETE from the directory")
        << QStringLiteral("DELETE FROM directory;")
        << QStringLiteral("line 1: DELETE from table 'directory' is not allowed in a dump");
    QTest::addRow("UPDATE") << QStringLiteral("UPDATE directory SET type = 'fn';")
                            << QStringLiteral("line 1: UPDATE of table 'directory' is not allowed in a dump");
    QTest::addRow("fewer values than columns")
        << QStringLiteral("\nINSERT INTO directory (key, type, target) VALUES ('A', 'fn');")
        << QStringLiteral("line 2: 2 values for 3 columns");
    QTest::addRow("more values than the production columns")
        << QStringLiteral(
               "INSERT INTO directory VALUES ('A', 'fn', NULL, NULL, NULL, 'T', NULL, NULL, NULL, 1, 1, 100, "
               "NULL, NULL, 0, NULL, NULL, NULL, 'extra');")
        << QStringLiteral("line 1: table directory has 18 columns but 19 values were supplied");
    QTest::addRow("unknown column in the INSERT")
        << QStringLiteral("INSERT INTO directory (key, type, colour) VALUES ('A', 'fn', 'red');")
        << QStringLiteral("line 1: table directory has no column named colour");
    QTest::addRow("unknown column in the CREATE TABLE")
        << QStringLiteral("CREATE TABLE directory (key TEXT PRIMARY KEY,\n type TEXT,\n colour TEXT);")
        << QStringLiteral("line 1: unknown column 'colour' in table 'directory'");
    QTest::addRow("blob") << QStringLiteral(
        "INSERT INTO directory (key, type, content) VALUES ('A', 'fn', X'00ff');")
                          << QStringLiteral("line 1: column 'content': holds a blob");
    QTest::addRow("text in an integer column")
        << QStringLiteral("INSERT INTO directory (key, type, seq) VALUES ('A', 'fn', 'abc');")
        << QStringLiteral("line 1: field 'seq' must be an integer");
    QTest::addRow("boolean out of range")
        << QStringLiteral("INSERT INTO directory (key, type, enabled) VALUES ('A', 'fn', 2);")
        << QStringLiteral("line 1: field 'enabled' must be 0 or 1");
    QTest::addRow("a dump that gave up") << QStringLiteral("BEGIN TRANSACTION;\nROLLBACK; -- due to errors\n")
                                         << QStringLiteral("line 2: the dump ends in ROLLBACK");
    QTest::addRow("INSERT … SELECT") << QStringLiteral(
        "INSERT INTO directory (key, type) SELECT key, type FROM old;")
                                     << QStringLiteral("line 1: a SELECT is not allowed in a dump");
    QTest::addRow("unreadable value")
        << QStringLiteral("INSERT INTO directory (key, type) VALUES ('A', lower('FN'));")
        << QStringLiteral("line 1: function lower() is not allowed in a dump");
}

void TestSqlDumpReader::refuses()
{
    QFETCH(QString, sql);
    QFETCH(QString, message);

    const StoreResult<SqlDump> dump = SqlDumpReader::read(sql.toUtf8());
    QVERIFY(!dump.ok());
    QCOMPARE(dump.error().kind, StoreError::Kind::Invalid);
    QVERIFY2(dump.error().message.startsWith(message), qPrintable(dump.error().message));
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

    const StoreResult<SqlDump> dump = SqlDumpReader::read(file);
    QVERIFY2(dump.ok(), qPrintable(dump.error().message));
    const QList<Row> &rows = dump.value().rows;
    const QList<int> &lines = dump.value().lines;
    QVERIFY(dump.value().skipped.isEmpty());
    QCOMPARE(rows.size(), 891);
    QCOMPARE(lines.constFirst(), 13); // the PRAGMA and the 11-line CREATE TABLE come first

    const Row &now = rows.at(0);
    QCOMPARE(now.key, QStringLiteral("NOW"));
    QCOMPARE(now.type, QStringLiteral("fn"));
    QCOMPARE(now.target, QStringLiteral("now"));
    QVERIFY(now.auth.isNull());
    QVERIFY(now.content.startsWith(QStringLiteral("# Return the current time")));
    QVERIFY(now.content.contains(text("\xe2\x80\x94"))); // the em dash survives as UTF-8

    const auto find = [&](const QString &key) {
        for (const Row &row : rows) {
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

void TestSqlDumpReader::takesTheDirectoryFromAWholeDatabase()
{
    // What `wrangler d1 export DB --remote` writes without --table.
    QFile file(QStringLiteral(CAPDESK_TESTDATA_DIR "/d1_whole_database.sql"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const StoreResult<SqlDump> dump = SqlDumpReader::read(file);
    QVERIFY2(dump.ok(), qPrintable(dump.error().message));
    QStringList keys;
    for (const Row &row : dump.value().rows)
        keys.append(row.key);
    QCOMPARE(keys, (QStringList{QStringLiteral("SHOUT"), QStringLiteral("ZZ_TEST_TEMPERATURE")}));
    QCOMPARE(dump.value().lines, (QList<int>{21, 26}));
    QCOMPARE(dump.value().rows.at(0).runner, QStringLiteral("edge"));
    QCOMPARE(dump.value().rows.at(1).examples, QStringLiteral("[\"37.77|-122.42\"]"));
    QCOMPARE(dump.value().skipped,
             (QStringList{QStringLiteral("table 'd1_migrations' (3 INSERTs)"),
                          QStringLiteral("table 'receipts' (2 INSERTs)"),
                          QStringLiteral("index 'idx_directory_category' on 'directory'"),
                          QStringLiteral("index 'idx_receipts_key' on 'receipts'")}));
}

void TestSqlDumpReader::refusesHostileDumps_data()
{
    QTest::addColumn<QByteArray>("sql");
    QTest::addColumn<QString>("message");

    const QByteArray head = "CREATE TABLE directory (key TEXT PRIMARY KEY, type TEXT, content TEXT);\n";
    QTest::addRow("a function call in a VALUES")
        << head + "INSERT INTO directory VALUES ('AA', 'fn', randomblob(1000000000));"
        << QStringLiteral("line 2: function randomblob() is not allowed in a dump");
    QTest::addRow("a function inside replace()")
        << head
               + "INSERT INTO directory VALUES ('AA', 'fn', replace(printf('%.*c', 1000000000, 'x'), 'x', "
                 "'y'));"
        << QStringLiteral("line 2: function printf() is not allowed in a dump");
    QTest::addRow("a recursive CTE")
        << head
               + "INSERT INTO directory WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                 "SELECT 'K' || x, 'fn', NULL FROM c;"
        << QStringLiteral("line 2: a recursive WITH is not allowed in a dump");
    QTest::addRow("a subquery in a multi-row VALUES")
        << head + "INSERT INTO directory VALUES ('AA', 'fn', NULL), ('BB', 'fn', (SELECT 1));"
        << QStringLiteral("line 2: a SELECT is not allowed in a dump");
    QTest::addRow("ATTACH") << QByteArray("ATTACH DATABASE '/tmp/capdesk-attached.db' AS other;")
                            << QStringLiteral("line 1: ATTACH and DETACH are not allowed in a dump");
    QTest::addRow("PRAGMA writable_schema")
        << QByteArray("PRAGMA writable_schema=ON;")
        << QStringLiteral("line 1: PRAGMA writable_schema is not allowed");
    QTest::addRow("a bound parameter") << head + "INSERT INTO directory VALUES ('AA', 'fn', ?1);"
                                       << QStringLiteral("line 2: the statement holds a parameter");
    QTest::addRow("CREATE TABLE … AS SELECT") << QByteArray("CREATE TABLE copy AS SELECT 1;")
                                              << QStringLiteral("line 1: a SELECT is not allowed in a dump");
    QTest::addRow("a virtual table") << QByteArray("CREATE VIRTUAL TABLE t USING fts5(x);")
                                     << QStringLiteral(
                                            "line 1: CREATE VIRTUAL TABLE is not allowed in a dump");
    QTest::addRow("a huge statement")
        << head + "INSERT INTO directory VALUES ('AA', 'fn', '" + QByteArray(17 * 1024 * 1024, 'x') + "');"
        << QStringLiteral("line 2: a statement longer than 16 MiB");
    QTest::addRow("a huge line that never ends")
        << QByteArray(20 * 1024 * 1024, '(') << QStringLiteral("line 1: a statement longer than 16 MiB");
}

void TestSqlDumpReader::refusesHostileDumps()
{
    QFETCH(QByteArray, sql);
    QFETCH(QString, message);

    const StoreResult<SqlDump> dump = SqlDumpReader::read(sql);
    QVERIFY(!dump.ok());
    QCOMPARE(dump.error().kind, StoreError::Kind::Invalid);
    QVERIFY2(dump.error().message.startsWith(message), qPrintable(dump.error().message));
    QVERIFY(!QFile::exists(QStringLiteral("/tmp/capdesk-attached.db")));
}

QTEST_GUILESS_MAIN(TestSqlDumpReader)
#include "tst_sqldumpreader.moc"
