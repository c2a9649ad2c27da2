#include "dispatch/store/preparedstatements.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/storebackend.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

// Statements prepared once and run again on one connection: each run binds its own values,
// leaves nothing open behind it, and a statement that failed is prepared afresh. Every case
// runs on a SQLite file and on a database of a real PostgreSQL server.
class TestPreparedStatements : public QObject
{
    Q_OBJECT

public:
    explicit TestPreparedStatements(StoreBackend::Kind kind) : m_backend(kind) {}

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void eachRunReadsWithItsOwnValues_data();
    void eachRunReadsWithItsOwnValues();
    void aRunFinishesItsStatementWhenItGoes();
    void aStatementThatFailedIsPreparedAfresh();
    void aStarIsNeverKept();
    void aUniqueViolationKeepsItsStatement();
    void aSecondRunBesideTheFirstGetsItsOwnStatement();
    void transactionControlRollsBackToItsSavepoint();

private:
    QString exec(const QString &sql);
    qint64 count(const QString &table);

    StoreBackend m_backend;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::unique_ptr<PreparedStatements> m_statements;
};

void TestPreparedStatements::initTestCase()
{
    qInfo("engine: %s", qPrintable(m_backend.name()));
    QVERIFY2(m_backend.start(), "the PostgreSQL server of this run did not start (see the warning above)");
}

void TestPreparedStatements::init()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
    m_statements = std::make_unique<PreparedStatements>(m_store->database());
    QCOMPARE(exec(u"CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)"_s), QString());
    QCOMPARE(exec(u"INSERT INTO t (k, v) VALUES ('a', 1), ('b', 2), ('c', 3)"_s), QString());
}

void TestPreparedStatements::cleanup()
{
    m_statements.reset();
    m_store.reset();
}

QString TestPreparedStatements::exec(const QString &sql)
{
    QSqlQuery query(m_store->database());
    return query.exec(sql) ? QString() : query.lastError().text();
}

qint64 TestPreparedStatements::count(const QString &table)
{
    QSqlQuery query(m_store->database());
    if (!query.exec(u"SELECT count(*) FROM "_s + table) || !query.next())
        return -1;
    return query.value(0).toLongLong();
}

void TestPreparedStatements::eachRunReadsWithItsOwnValues_data()
{
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QList<int>>("values");
    QTest::newRow("one key") << QStringList{u"b"_s} << QList<int>{2};
    QTest::newRow("three keys in turn") << QStringList{u"a"_s, u"c"_s, u"b"_s} << QList<int>{1, 3, 2};
    QTest::newRow("the same key twice") << QStringList{u"c"_s, u"c"_s} << QList<int>{3, 3};
    // -1: no row, and the next run still finds its own.
    QTest::newRow("a key not there, then one that is") << QStringList{u"z"_s, u"a"_s} << QList<int>{-1, 1};
}

void TestPreparedStatements::eachRunReadsWithItsOwnValues()
{
    QFETCH(QStringList, keys);
    QFETCH(QList<int>, values);
    QList<int> read;
    for (const QString &key : keys) {
        PreparedRun run = m_statements->run(u"SELECT v FROM t WHERE k = ?"_s, {key});
        QVERIFY2(run.ok(), qPrintable(run.lastError().text()));
        read.append(run.query().next() ? run.query().value(0).toInt() : -1);
    }
    QCOMPARE(read, values);
}

// A statement left active holds SQLite's read snapshot and the table's lock: a DROP on the
// same connection fails while it is half read.
void TestPreparedStatements::aRunFinishesItsStatementWhenItGoes()
{
    const QString select = u"SELECT k FROM t ORDER BY k"_s;
    QSqlQuery *kept = nullptr;
    {
        PreparedRun run = m_statements->run(select);
        QVERIFY2(run.ok(), qPrintable(run.lastError().text()));
        QVERIFY(run.query().next());
        kept = &run.query();
        QVERIFY(kept->isActive());
        if (m_backend.kind() == StoreBackend::Kind::Sqlite)
            QVERIFY(!exec(u"DROP TABLE t"_s).isEmpty());
    }
    QVERIFY(!kept->isActive());
    {
        PreparedRun again = m_statements->run(select);
        QCOMPARE(&again.query(), kept);
        QVERIFY(again.query().next());
        QCOMPARE(again.query().value(0).toString(), u"a"_s);
    }
    QCOMPARE(exec(u"DROP TABLE t"_s), QString());
}

// PostgreSQL refuses a kept plan whose result types changed ("cached plan must not change
// result type"); SQLite prepares such a statement again by itself, so there the drop is not
// what is tested. Either way the next run works.
void TestPreparedStatements::aStatementThatFailedIsPreparedAfresh()
{
    const QString select = u"SELECT k, v FROM t WHERE k = ?"_s;
    {
        PreparedRun missing = m_statements->run(u"SELECT n FROM u"_s);
        QVERIFY(!missing.ok());
        QVERIFY(!missing.lastError().text().isEmpty());
    }
    QCOMPARE(m_statements->keptCount(), 0);
    QVERIFY(m_statements->run(select, {u"a"_s}).ok());
    QCOMPARE(exec(u"DROP TABLE t"_s), QString());
    QCOMPARE(exec(u"CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)"_s), QString());
    QCOMPARE(exec(u"INSERT INTO t (k, v) VALUES ('a', 'x')"_s), QString());
    bool read = false;
    for (int attempt = 0; attempt < 2 && !read; ++attempt) {
        PreparedRun run = m_statements->run(select, {u"a"_s});
        read = run.ok() && run.query().next() && run.query().value(1).toString() == u"x"_s;
    }
    QVERIFY(read);
    QCOMPARE(exec(u"CREATE TABLE u (n INTEGER)"_s), QString());
    QVERIFY(m_statements->run(u"SELECT n FROM u"_s).ok());
}

// A `*` grows with the table. Kept, SQLite's automatic prepare after the ALTER would give the
// statement a column Qt's driver has no room for (a heap overflow under AddressSanitizer);
// run afresh, each run reads every column there is.
void TestPreparedStatements::aStarIsNeverKept()
{
    const QString select = u"SELECT * FROM t WHERE k = ?"_s;
    {
        PreparedRun before = m_statements->run(select, {u"a"_s});
        QVERIFY(before.ok() && before.query().next());
        QCOMPARE(before.query().record().count(), 2);
    }
    QCOMPARE(m_statements->keptCount(), 0);
    QCOMPARE(exec(u"ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'x'"_s), QString());
    PreparedRun after = m_statements->run(select, {u"a"_s});
    QVERIFY2(after.ok(), qPrintable(after.lastError().text()));
    QVERIFY(after.query().next());
    QCOMPARE(after.query().record().count(), 3);
    QCOMPARE(after.query().value(2).toString(), u"x"_s);
    QCOMPARE(m_statements->keptCount(), 0);
}

// A duplicate key is the values' fault: the statement stays kept, and runs again.
void TestPreparedStatements::aUniqueViolationKeepsItsStatement()
{
    const QString insert = u"INSERT INTO t (k, v) VALUES (?, ?)"_s;
    QVERIFY(!m_statements->run(insert, {u"a"_s, 9}).ok());
    QCOMPARE(m_statements->keptCount(), 1);
    const PreparedRun fresh = m_statements->run(insert, {u"d"_s, 4});
    QVERIFY2(fresh.ok(), qPrintable(fresh.lastError().text()));
    QCOMPARE(m_statements->keptCount(), 1);
    QCOMPARE(count(u"t"_s), 4);
}

// Two runs of one text at once (a read inside a read) each keep their own rows.
void TestPreparedStatements::aSecondRunBesideTheFirstGetsItsOwnStatement()
{
    const QString select = u"SELECT k FROM t WHERE v >= ? ORDER BY k"_s;
    PreparedRun outer = m_statements->run(select, {2});
    QVERIFY(outer.ok());
    QVERIFY(outer.query().next());
    {
        PreparedRun inner = m_statements->run(select, {1});
        QVERIFY(inner.ok());
        QVERIFY(&inner.query() != &outer.query());
        QVERIFY(inner.query().next());
        QCOMPARE(inner.query().value(0).toString(), u"a"_s);
    }
    QCOMPARE(outer.query().value(0).toString(), u"b"_s);
    QVERIFY(outer.query().next());
    QCOMPARE(outer.query().value(0).toString(), u"c"_s);
}

void TestPreparedStatements::transactionControlRollsBackToItsSavepoint()
{
    QSqlDatabase db = m_store->database();
    // Twice, so the second round runs statements kept from the first.
    for (int round = 0; round < 2; ++round) {
        QVERIFY(db.transaction());
        QVERIFY(m_statements->control(u"SAVEPOINT step"_s).ok());
        QVERIFY(
            m_statements->run(u"INSERT INTO t (k, v) VALUES (?, ?)"_s, {u"kept%1"_s.arg(round), round}).ok());
        QVERIFY(m_statements->control(u"RELEASE step"_s).ok());
        QVERIFY(m_statements->control(u"SAVEPOINT step"_s).ok());
        QVERIFY(
            m_statements->run(u"INSERT INTO t (k, v) VALUES (?, ?)"_s, {u"gone%1"_s.arg(round), round}).ok());
        QVERIFY(m_statements->control(u"ROLLBACK TO step"_s).ok());
        QVERIFY(m_statements->control(u"RELEASE step"_s).ok());
        QVERIFY(db.commit());
        QCOMPARE(count(u"t"_s), 3 + round + 1);
    }
    QCOMPARE(count(u"t WHERE k LIKE 'gone%'"_s), 0);
}

CAPDESK_TEST_ON_BOTH_BACKENDS(TestPreparedStatements)

#include "tst_preparedstatements.moc"
