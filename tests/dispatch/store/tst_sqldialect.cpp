#include "dispatch/row/row.h"
#include "dispatch/store/schemamigrator.h"
#include "dispatch/store/sqldialect.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/rawsql.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

// Each text of the SQLite dialect does what its name says, on a real directory file.
class TestSqlDialect : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void aConnectionHasItsDriversDialect();
    void tableNames();
    void schemaVersionReadsWhatWasApplied();
    void columnNames_data();
    void columnNames();
    void eventSeqIssuedOutlivesDeletedEvents();
    void insertionOrderBreaksTies();

private:
    QStringList column(const QString &sql);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
};

void TestSqlDialect::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto opened = SqlDirectoryStore::open(m_dir->filePath(u"d.db"_s));
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
}

void TestSqlDialect::cleanup()
{
    m_store.reset();
}

QStringList TestSqlDialect::column(const QString &sql)
{
    QStringList values;
    QSqlQuery query(m_store->database());
    if (!query.exec(sql)) {
        qWarning("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
        return {u"<failed>"_s};
    }
    while (query.next())
        values.append(query.value(0).toString());
    return values;
}

void TestSqlDialect::aConnectionHasItsDriversDialect()
{
    QCOMPARE(SqlDialect::of(m_store->database()).name, u"SQLite"_s);
}

void TestSqlDialect::tableNames()
{
    const QStringList tables = column(SqlDialect::sqlite().tableNames);
    for (const QString &table : {u"directory"_s, u"events"_s, u"receipts"_s, u"capability_tokens"_s})
        QVERIFY2(tables.contains(table), qPrintable(tables.join(u", "_s)));
}

void TestSqlDialect::schemaVersionReadsWhatWasApplied()
{
    QCOMPARE(column(SqlDialect::sqlite().schemaVersion),
             QStringList{QString::number(SchemaMigrator::latestVersion())});
}

void TestSqlDialect::columnNames_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QStringList>("some");
    QTest::addRow("directory") << u"directory"_s << QStringList{u"key"_s, u"type"_s, u"updated_at"_s};
    QTest::addRow("events") << u"events"_s << QStringList{u"seq"_s, u"hash"_s, u"prev_hash"_s};
    QTest::addRow("no such table") << u"nothing_here"_s << QStringList{};
}

void TestSqlDialect::columnNames()
{
    QFETCH(QString, table);
    QFETCH(QStringList, some);
    const QStringList names = column(SqlDialect::sqlite().columnNames.arg(table));
    if (some.isEmpty())
        QVERIFY(names.isEmpty());
    for (const QString &name : some)
        QVERIFY2(names.contains(name), qPrintable(names.join(u", "_s)));
}

void TestSqlDialect::eventSeqIssuedOutlivesDeletedEvents()
{
    QCOMPARE(column(SqlDialect::sqlite().eventSeqIssued), QStringList{u"0"_s});
    Row a;
    a.key = u"A"_s;
    a.type = u"fn"_s;
    Row b = a;
    b.key = u"B"_s;
    QVERIFY(!m_store->importRows({a, b}).isError());
    const QStringList issued = column(SqlDialect::sqlite().eventSeqIssued);
    QCOMPARE(issued, column(u"SELECT MAX(seq) FROM events"_s));
    const QString failed = RawSql::exec(m_dir->filePath(u"d.db"_s),
                                        {u"DROP TRIGGER events_refuse_delete"_s, u"DELETE FROM events"_s});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    QCOMPARE(column(SqlDialect::sqlite().eventSeqIssued), issued);
}

void TestSqlDialect::insertionOrderBreaksTies()
{
    const QString failed = RawSql::exec(m_dir->filePath(u"d.db"_s),
                                        {u"CREATE TABLE t (id TEXT, at TEXT)"_s,
                                         u"INSERT INTO t VALUES ('zz', '2026-01-01'), ('aa', '2026-01-01'), "
                                         "('mm', '2026-01-01')"_s});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    QCOMPARE(column(u"SELECT id FROM t ORDER BY at, %1"_s.arg(SqlDialect::sqlite().insertionOrder)),
             (QStringList{u"zz"_s, u"aa"_s, u"mm"_s}));
}

QTEST_GUILESS_MAIN(TestSqlDialect)
#include "tst_sqldialect.moc"
