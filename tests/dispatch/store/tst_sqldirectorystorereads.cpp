#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/samplerow.h"
#include "tests/support/storebackend.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <algorithm>

// The store's bulk reads on every engine: rows handed over in batches, in the order asked,
// each value as the single-row read gives it, and keys in byte order.
class TestSqlDirectoryStoreReads : public QObject
{
    Q_OBJECT

public:
    explicit TestSqlDirectoryStoreReads(StoreBackend::Kind kind) : m_backend(kind) {}

private slots:
    void initTestCase();
    void keysSortBytewise();
    void scanRowsHandsOverBatchesInTheOrderAsked_data();
    void scanRowsHandsOverBatchesInTheOrderAsked();
    void scanRowsReadsEveryValueAsTheRowReadDoes_data();
    void scanRowsReadsEveryValueAsTheRowReadDoes();

private:
    StoreBackend m_backend;
};

void TestSqlDirectoryStoreReads::initTestCase()
{
    qInfo("engine: %s", qPrintable(m_backend.name()));
    QVERIFY2(m_backend.start(), "the PostgreSQL server of this run did not start (see the warning above)");
}

void TestSqlDirectoryStoreReads::scanRowsHandsOverBatchesInTheOrderAsked_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("batchRows");
    QTest::addColumn<int>("stopAfter"); // batches the sink takes before it says stop; 0: all
    QTest::addColumn<QList<int>>("batchSizes");
    QTest::addColumn<DirectoryStore::RowOrder>("order");
    for (const auto &[order, name] : {std::pair{DirectoryStore::RowOrder::ByKey, "by key"},
                                      std::pair{DirectoryStore::RowOrder::Any, "any order"}}) {
        const auto add = [name = QString::fromLatin1(name)](const char *what) -> QTestData & {
            return QTest::addRow("%s, %s", what, qPrintable(name));
        };
        add("none") << 0 << 3 << 0 << QList<int>{} << order;
        add("fewer than a batch") << 2 << 3 << 0 << QList<int>{2} << order;
        add("exact batches") << 6 << 3 << 0 << QList<int>{3, 3} << order;
        add("a short last batch") << 7 << 3 << 0 << QList<int>{3, 3, 1} << order;
        add("one row a batch") << 3 << 1 << 0 << QList<int>{1, 1, 1} << order;
        add("a batch size out of range is one") << 2 << 0 << 0 << QList<int>{1, 1} << order;
        add("stopped after the first") << 7 << 3 << 1 << QList<int>{3} << order;
    }
}

// Rows are written in reverse key order, so storage order is not key order.
void TestSqlDirectoryStoreReads::scanRowsHandsOverBatchesInTheOrderAsked()
{
    QFETCH(int, rows);
    QFETCH(int, batchRows);
    QFETCH(int, stopAfter);
    QFETCH(QList<int>, batchSizes);
    QFETCH(DirectoryStore::RowOrder, order);
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(opened.ok());
    QList<Row> stored;
    for (int i = rows; i > 0; --i)
        stored.append(sampleRow(QStringLiteral("ROW_%1").arg(i, 2, 10, QLatin1Char('0'))));
    QVERIFY(!opened.value()->importRows(stored).isError());

    QList<int> sizes;
    QStringList keys;
    const StoreError error = opened.value()->scanRows(
        [&](QList<Row> &&batch) {
            sizes.append(int(batch.size()));
            for (const Row &row : std::as_const(batch))
                keys.append(row.key);
            return stopAfter == 0 || sizes.size() < stopAfter;
        },
        batchRows, order);
    QVERIFY2(!error.isError(), qPrintable(error.message));
    QCOMPARE(sizes, batchSizes);
    QStringList inOrder = keys;
    std::sort(inOrder.begin(), inOrder.end());
    QVERIFY(std::adjacent_find(inOrder.cbegin(), inOrder.cend()) == inOrder.cend()); // each row once
    if (order == DirectoryStore::RowOrder::ByKey)
        QCOMPARE(keys, inOrder);
    if (stopAfter == 0) {
        QCOMPARE(keys.size(), rows);
        const QList<Row> all = opened.value()->allRows().value();
        QCOMPARE(all.size(), rows);
        for (qsizetype i = 0; i < all.size(); ++i)
            QCOMPARE(all.at(i).key, inOrder.at(i));
    }
}

// The bulk read has a path of its own on SQLite (SqliteRowScan); whatever a file holds, it
// must hand over the row that the single-row read gives.
void TestSqlDirectoryStoreReads::scanRowsReadsEveryValueAsTheRowReadDoes_data()
{
    QTest::addColumn<QString>("column");
    QTest::addColumn<QString>("stored"); // an SQL literal, written past the store
    QTest::addColumn<QString>("storedAs"); // SQLite's typeof() of what the column then holds
    QTest::addColumn<QVariant>("read");
    QTest::addRow("NULL text") << "auth"
                               << "NULL"
                               << "null" << QVariant();
    QTest::addRow("empty text is not NULL") << "auth"
                                            << "''"
                                            << "text" << QVariant(QStringLiteral(""));
    QTest::addRow("text beyond ASCII") << "auth"
                                       << "'grüße ✓ 𝄞'"
                                       << "text" << QVariant(QStringLiteral("grüße ✓ 𝄞"));
    QTest::addRow("NULL seq") << "seq"
                              << "NULL"
                              << "null" << QVariant();
    QTest::addRow("an integer") << "planner_rank"
                                << "7"
                                << "integer" << QVariant(qint64(7));
    QTest::addRow("NULL in a defaulted integer") << "planner_rank"
                                                 << "NULL"
                                                 << "null" << QVariant(qint64(100));
    if (m_backend.kind() != StoreBackend::Kind::Sqlite)
        return;
    // What a legacy SQLite file may hold: a column's declared type converts only what
    // converts losslessly, and a blob never.
    QTest::addRow("a blob in a text column") << "auth"
                                             << "X'6869'"
                                             << "blob" << QVariant(QStringLiteral("hi"));
    QTest::addRow("an empty blob in a text column is NULL") << "auth"
                                                            << "X''"
                                                            << "blob" << QVariant();
    QTest::addRow("bytes that are not UTF-8, decoded as SQLite does")
        << "auth"
        << "CAST(X'618062' AS TEXT)"
        << "text" << QVariant(QStringLiteral("a\u0080b"));
    QTest::addRow("text in an integer column") << "planner_rank"
                                               << "'9' || char(160)"
                                               << "text" << QVariant(qint64(9));
    QTest::addRow("a fraction keeps the default") << "planner_rank"
                                                  << "2.5"
                                                  << "real" << QVariant(qint64(100));
    QTest::addRow("words keep the default") << "planner_rank"
                                            << "'x'"
                                            << "text" << QVariant(qint64(100));
    QTest::addRow("a flag out of range keeps the default") << "sensitive"
                                                           << "2"
                                                           << "integer" << QVariant(qint64(0));
    QTest::addRow("a blob in an integer column keeps the default") << "seq"
                                                                   << "X'01'"
                                                                   << "blob" << QVariant();
}

void TestSqlDirectoryStoreReads::scanRowsReadsEveryValueAsTheRowReadDoes()
{
    QFETCH(QString, column);
    QFETCH(QString, stored);
    QFETCH(QString, storedAs);
    QFETCH(QVariant, read);
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(opened.ok());
    SqlDirectoryStore &store = *opened.value();
    QVERIFY(store.create(sampleRow(QStringLiteral("ODD_VALUE"))).ok());
    QSqlQuery write(store.database());
    QVERIFY2(write.exec(
                 QStringLiteral("UPDATE directory SET %1 = %2 WHERE key = 'ODD_VALUE'").arg(column, stored)),
             qPrintable(write.lastError().text()));
    if (m_backend.kind() == StoreBackend::Kind::Sqlite) {
        QVERIFY(write.exec(
            QStringLiteral("SELECT typeof(%1) FROM directory WHERE key = 'ODD_VALUE'").arg(column)));
        QVERIFY(write.next());
        QCOMPARE(write.value(0).toString(), storedAs);
    }

    QList<Row> scanned;
    const StoreError error = store.scanRows([&scanned](QList<Row> &&batch) {
        scanned.append(std::move(batch));
        return true;
    });
    QVERIFY2(!error.isError(), qPrintable(error.message));
    QCOMPARE(scanned.size(), 1);
    QCOMPARE(scanned.first().value(column), read);
    QCOMPARE(scanned.first(), store.row(QStringLiteral("ODD_VALUE")).value());
}

void TestSqlDirectoryStoreReads::keysSortBytewise()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(opened.ok());
    SqlDirectoryStore &store = *opened.value();
    const QStringList keys{QStringLiteral("b"),
                           QStringLiteral("B"),
                           QStringLiteral("a_b"),
                           QStringLiteral("a-b"),
                           QStringLiteral("\u00e9t\u00e9"),
                           QStringLiteral("Z")};
    QList<Row> rows;
    for (const QString &key : keys)
        rows.append(sampleRow(key));
    QVERIFY(!store.importRows(rows).isError());
    QStringList expected = keys;
    std::sort(expected.begin(), expected.end(),
              [](const QString &x, const QString &y) { return x.toUtf8() < y.toUtf8(); });
    QStringList read;
    const StoreResult<QList<Row>> all = store.allRows();
    QVERIFY(all.ok());
    for (const Row &row : all.value())
        read.append(row.key);
    QCOMPARE(read, expected);
    QStringList first;
    QVERIFY(
        !store
             .scanSummaryViews([&](const RowSummaryView &view) { first.append(RowSummary::of(view).key); }, 3)
             .isError());
    QCOMPARE(first, expected.mid(0, 3));
}

CAPDESK_TEST_ON_BOTH_BACKENDS(TestSqlDirectoryStoreReads)
#include "tst_sqldirectorystorereads.moc"
