#include "dispatch/receipts/receiptsummaryreader.h"
#include "dispatch/store/sqldirectorystore.h"
#include "models/receipttablemodel.h"
#include "tests/support/receiptfixture.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

// The receipt table against plain SQL over a few thousand generated receipts: whatever
// the filter, the model must list exactly the receipts SQLite selects, newest first, a
// page at a time as the view asks for more.
class TestReceiptTableModel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void passesTheModelTester();
    void listsEveryReceiptNewestFirst();
    void filtersLikeSql_data();
    void filtersLikeSql();
    void filtersByCaller_data();
    void filtersByCaller();
    void loadsTheNewestPageThenMoreOnDemand();
    void aNewFilterKeepsTheRowsUntilItsPageComes();
    void refreshPutsNewReceiptsOnTopAndKeepsTheSelection();
    void refreshShowsOnlyNewReceiptsThatMatch();
    void listsTheStatusesAndCallersInUse();
    void findsTheRowOfAnInvocation();
    void aFailedFilterListsNothingAndReadsNoMore();
    void durationText_data();
    void durationText();

private:
    QStringList sqlIds(const QString &where) const;
    static QStringList modelIds(const ReceiptTableModel &model);
    static qint64 msecs(const char *iso);
    void addReceipts(int count);

    QTemporaryDir m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    int m_written = 0;
};

namespace {

constexpr int kReceipts = 3000;
constexpr int kKeys = 150;

// Until neither a page nor a count is read; false on a failure or when it takes too long.
bool waitForLoad(ReceiptTableModel &model)
{
    QSignalSpy finished(&model, &ReceiptTableModel::loadFinished);
    while (model.isLoading()) {
        if (!finished.wait(10000))
            return false;
    }
    for (const QList<QVariant> &said : std::as_const(finished)) {
        if (!said.first().toString().isEmpty())
            return false;
    }
    return true;
}

// Asks for pages as a view scrolled to the end would, until every receipt is listed.
bool fetchAll(ReceiptTableModel &model)
{
    if (!waitForLoad(model))
        return false;
    for (int page = 0; page < 1000 && model.canFetchMore({}); ++page) {
        model.fetchMore({});
        if (!waitForLoad(model))
            return false;
    }
    return !model.canFetchMore({}) && model.isComplete();
}

} // namespace

void TestReceiptTableModel::initTestCase()
{
    auto opened = SqlDirectoryStore::open(m_dir.filePath(QStringLiteral("receipts.db")));
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
    addReceipts(kReceipts);
}

void TestReceiptTableModel::addReceipts(int count)
{
    const QString error = ReceiptFixture::insert(m_store->database(), m_written, count, kKeys);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_written += count;
}

QStringList TestReceiptTableModel::sqlIds(const QString &where) const
{
    QSqlQuery query(m_store->database());
    const QString sql = QStringLiteral("SELECT invocation_id FROM receipts %1 ORDER BY seq DESC")
                            .arg(where.isEmpty() ? QString() : QStringLiteral("WHERE ") + where);
    if (!query.exec(sql))
        qFatal("bad test SQL");
    QStringList ids;
    while (query.next())
        ids.append(query.value(0).toString());
    return ids;
}

QStringList TestReceiptTableModel::modelIds(const ReceiptTableModel &model)
{
    QStringList ids;
    for (int row = 0; row < model.rowCount(); ++row)
        ids.append(model.invocationIdAt(row));
    return ids;
}

qint64 TestReceiptTableModel::msecs(const char *iso)
{
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs).toMSecsSinceEpoch();
}

void TestReceiptTableModel::passesTheModelTester()
{
    ReceiptTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.loadProgressively(std::make_shared<ReceiptSummaryReader>(m_store));
    QVERIFY(waitForLoad(model));
    ReceiptFilter filter;
    filter.key = QStringLiteral("rk_01");
    model.setFilter(filter);
    filter.status = Receipt::ranWithoutMaterial;
    model.setFilter(filter);
    addReceipts(40);
    model.refresh();
    QVERIFY(waitForLoad(model));
    model.setFilter({});
    addReceipts(10);
    model.refresh();
    QVERIFY(fetchAll(model));
    QCOMPARE(model.rowCount(), m_written);
}

void TestReceiptTableModel::listsEveryReceiptNewestFirst()
{
    ReceiptTableModel model;
    QVERIFY(!model.load(std::make_shared<ReceiptSummaryReader>(m_store)).isError());
    QCOMPARE(model.totalReceipts(), qint64(m_written));
    QVERIFY(fetchAll(model));
    QCOMPARE(modelIds(model), sqlIds(QString()));
    const QModelIndex top = model.index(0, ReceiptTableModel::TimeColumn);
    QSqlQuery newest(m_store->database());
    QVERIFY(newest.exec(
        QStringLiteral("SELECT started_at, key, duration_ms FROM receipts ORDER BY seq DESC LIMIT 1")));
    QVERIFY(newest.next());
    QCOMPARE(top.data(ReceiptTableModel::StartedMsecsRole).toLongLong(),
             QDateTime::fromString(newest.value(0).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch());
    QCOMPARE(top.data(ReceiptTableModel::KeyRole).toString(), newest.value(1).toString());
    QCOMPARE(top.data(ReceiptTableModel::DurationMsRole).toLongLong(), newest.value(2).toLongLong());
}

void TestReceiptTableModel::filtersLikeSql_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("status");
    QTest::addColumn<qint64>("from");
    QTest::addColumn<qint64>("to");
    QTest::addColumn<QString>("search");
    QTest::addColumn<QString>("where");
    constexpr qint64 noFrom = std::numeric_limits<qint64>::min();
    constexpr qint64 noTo = std::numeric_limits<qint64>::max();

    QTest::addRow("key part, any case") << QStringLiteral("Rk_01") << QString() << noFrom << noTo << QString()
                                        << QStringLiteral("instr(lower(key), 'rk_01') > 0");
    QTest::addRow("whole key") << QStringLiteral("RK_0042") << QString() << noFrom << noTo << QString()
                               << QStringLiteral("key = 'RK_0042'");
    QTest::addRow("no such key") << QStringLiteral("nothing") << QString() << noFrom << noTo << QString()
                                 << QStringLiteral("0");
    QTest::addRow("status") << QString() << Receipt::ranWithoutMaterial << noFrom << noTo << QString()
                            << QStringLiteral("status = 'RAN_WITHOUT_MATERIAL_RESULT'");
    QTest::addRow("unknown status") << QString() << QStringLiteral("UNKNOWN") << noFrom << noTo << QString()
                                    << QStringLiteral("0");
    QTest::addRow("from") << QString() << QString() << msecs("2026-01-01T00:30:00.000Z") << noTo << QString()
                          << QStringLiteral("started_at >= '2026-01-01T00:30:00.000Z'");
    QTest::addRow("time range") << QString() << QString() << msecs("2026-01-01T00:10:00.000Z")
                                << msecs("2026-01-01T00:20:00.500Z") << QString()
                                << QStringLiteral("started_at BETWEEN '2026-01-01T00:10:00.000Z' AND "
                                                  "'2026-01-01T00:20:00.500Z'");
    QTest::addRow("id part") << QString() << QString() << noFrom << noTo << QStringLiteral("INV_0")
                             << QStringLiteral(
                                    "instr(invocation_id, 'inv_0') > 0 OR instr(trace, 'inv_0') > 0");
    QTest::addRow("trace part") << QString() << QString() << noFrom << noTo << QStringLiteral("t_00")
                                << QStringLiteral(
                                       "instr(invocation_id, 't_00') > 0 OR instr(trace, 't_00') > 0");
    QTest::addRow("one letter") << QString() << QString() << noFrom << noTo << QStringLiteral("z")
                                << QStringLiteral("instr(invocation_id, 'z') > 0 OR instr(trace, 'z') > 0");
    QTest::addRow("a parent's id finds only that receipt")
        << QString() << QString() << noFrom << noTo << ReceiptFixture::invocationId(3)
        << QStringLiteral("invocation_id = '%1'").arg(ReceiptFixture::invocationId(3));
    QTest::addRow("everything at once")
        << QStringLiteral("rk_00") << Receipt::provenMaterial << msecs("2026-01-01T00:05:00.000Z")
        << msecs("2026-01-01T01:00:00.000Z") << QStringLiteral("t_")
        << QStringLiteral(
               "instr(lower(key), 'rk_00') > 0 AND status = 'PROVEN_MATERIAL_RESULT' AND started_at "
               "BETWEEN '2026-01-01T00:05:00.000Z' AND '2026-01-01T01:00:00.000Z'");
}

void TestReceiptTableModel::filtersLikeSql()
{
    QFETCH(QString, key);
    QFETCH(QString, status);
    QFETCH(qint64, from);
    QFETCH(qint64, to);
    QFETCH(QString, search);
    QFETCH(QString, where);
    ReceiptTableModel model;
    QVERIFY(!model.load(std::make_shared<ReceiptSummaryReader>(m_store)).isError());
    QSignalSpy counts(&model, &ReceiptTableModel::countsChanged);
    model.setFilter({key, status, from, to, search, QString()});
    QVERIFY(fetchAll(model));
    const QStringList expected = sqlIds(where);
    if (where != QLatin1String("0"))
        QVERIFY2(!expected.isEmpty() && expected.size() < m_written, "the case should select some receipts");
    QCOMPARE(modelIds(model), expected);
    QVERIFY(!counts.isEmpty());
    QCOMPARE(counts.last().at(0).toInt(), int(expected.size()));
    // The total is not counted again for a filter.
    QCOMPARE(counts.last().at(1).toLongLong(), qint64(m_written));
}

void TestReceiptTableModel::filtersByCaller_data()
{
    QTest::addColumn<QString>("actor");
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("where");

    QTest::addRow("one caller") << QStringLiteral("agent:planner") << QString()
                                << QStringLiteral("actor = 'agent:planner'");
    QTest::addRow("a caller and a status") << QStringLiteral("owner:terminal-key") << Receipt::provenMaterial
                                           << QStringLiteral("actor = 'owner:terminal-key' AND status = "
                                                             "'PROVEN_MATERIAL_RESULT'");
    QTest::addRow("a caller no receipt names")
        << QStringLiteral("mcp:nobody") << QString() << QStringLiteral("0");
}

// The caller filter (an MCP client is mcp:NAME), and the callers offered for it.
void TestReceiptTableModel::filtersByCaller()
{
    QFETCH(QString, actor);
    QFETCH(QString, status);
    QFETCH(QString, where);
    ReceiptTableModel model;
    QVERIFY(!model.load(std::make_shared<ReceiptSummaryReader>(m_store)).isError());
    QCOMPARE(model.actors(),
             QStringList({QStringLiteral("agent:planner"), QStringLiteral("owner:terminal-key"),
                          QStringLiteral("token:tok_ab12")}));
    ReceiptFilter filter;
    filter.actor = actor;
    filter.status = status;
    model.setFilter(filter);
    QVERIFY(fetchAll(model));
    QCOMPARE(modelIds(model), sqlIds(where));
}

void TestReceiptTableModel::loadsTheNewestPageThenMoreOnDemand()
{
    ReceiptTableModel model;
    model.loadProgressively(std::make_shared<ReceiptSummaryReader>(m_store));
    QVERIFY(model.isLoading());
    QCOMPARE(model.totalReceipts(), qint64(-1)); // not counted yet
    QVERIFY(waitForLoad(model));
    QCOMPARE(model.totalReceipts(), qint64(m_written));
    QCOMPARE(modelIds(model), sqlIds(QString()).mid(0, ReceiptTableModel::kPageSize));
    QVERIFY(model.canFetchMore({}));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.fetchMore({});
    QVERIFY(waitForLoad(model));
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted.first().at(1).toInt(), ReceiptTableModel::kPageSize);
    QCOMPARE(inserted.first().at(2).toInt(), 2 * ReceiptTableModel::kPageSize - 1);
    QCOMPARE(modelIds(model), sqlIds(QString()).mid(0, 2 * ReceiptTableModel::kPageSize));
    QVERIFY(fetchAll(model));
    QCOMPARE(modelIds(model), sqlIds(QString()));
}

void TestReceiptTableModel::aNewFilterKeepsTheRowsUntilItsPageComes()
{
    ReceiptTableModel model;
    QVERIFY(!model.load(std::make_shared<ReceiptSummaryReader>(m_store)).isError());
    ReceiptFilter first;
    first.key = QStringLiteral("rk_0");
    model.setFilter(first);
    const QStringList before = modelIds(model);
    ReceiptFilter second = first;
    second.key = QStringLiteral("rk_00");
    // A second keystroke while the first is read: only the last one is listed.
    model.setFilter(second);
    QCOMPARE(modelIds(model), before);
    QVERIFY(fetchAll(model));
    QCOMPARE(modelIds(model), sqlIds(QStringLiteral("instr(lower(key), 'rk_00') > 0")));
}

void TestReceiptTableModel::refreshPutsNewReceiptsOnTopAndKeepsTheSelection()
{
    ReceiptTableModel model;
    QVERIFY(!model.load(std::make_shared<ReceiptSummaryReader>(m_store)).isError());
    QVERIFY(fetchAll(model));
    const QPersistentModelIndex selected = model.index(5, ReceiptTableModel::KeyColumn);
    const QString id = selected.data(ReceiptTableModel::InvocationIdRole).toString();
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    addReceipts(12);
    model.refresh();
    QVERIFY(waitForLoad(model));
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted.first().at(1).toInt(), 0);
    QCOMPARE(inserted.first().at(2).toInt(), 11);
    QCOMPARE(selected.row(), 17);
    QCOMPARE(selected.data(ReceiptTableModel::InvocationIdRole).toString(), id);
    QCOMPARE(modelIds(model), sqlIds(QString()));
}

void TestReceiptTableModel::refreshShowsOnlyNewReceiptsThatMatch()
{
    ReceiptTableModel model;
    QVERIFY(!model.load(std::make_shared<ReceiptSummaryReader>(m_store)).isError());
    ReceiptFilter filter;
    filter.status = Receipt::ranWithoutMaterial;
    model.setFilter(filter);
    QVERIFY(fetchAll(model));
    addReceipts(60);
    model.refresh();
    QVERIFY(waitForLoad(model));
    QCOMPARE(modelIds(model), sqlIds(QStringLiteral("status = 'RAN_WITHOUT_MATERIAL_RESULT'")));
    QCOMPARE(model.totalReceipts(), qint64(m_written));
}

void TestReceiptTableModel::listsTheStatusesAndCallersInUse()
{
    ReceiptTableModel model;
    QSignalSpy choices(&model, &ReceiptTableModel::choicesChanged);
    QVERIFY(!model.load(std::make_shared<ReceiptSummaryReader>(m_store)).isError());
    QCOMPARE(choices.size(), 1);
    QCOMPARE(model.statuses(), QStringList({Receipt::provenMaterial, Receipt::ranWithoutMaterial}));
    QCOMPARE(model.actors().size(), 3);
    // A refresh that brings nothing new changes none.
    model.refresh();
    QVERIFY(waitForLoad(model));
    QCOMPARE(choices.size(), 1);
}

void TestReceiptTableModel::findsTheRowOfAnInvocation()
{
    ReceiptTableModel model;
    QVERIFY(!model.load(std::make_shared<ReceiptSummaryReader>(m_store)).isError());
    const QString id = ReceiptFixture::invocationId(10);
    QCOMPARE(model.rowOfInvocation(id), -1); // one of the oldest: not on the first page
    QVERIFY(fetchAll(model));
    const int row = model.rowOfInvocation(id);
    QVERIFY(row >= 0);
    QCOMPARE(model.invocationIdAt(row), id);
    ReceiptFilter another;
    another.search = ReceiptFixture::invocationId(11);
    model.setFilter(another);
    QVERIFY(fetchAll(model));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.rowOfInvocation(id), -1);
    QCOMPARE(model.rowOfInvocation(QStringLiteral("inv_missing")), -1);
}

void TestReceiptTableModel::aFailedFilterListsNothingAndReadsNoMore()
{
    QTemporaryDir dir;
    auto opened = SqlDirectoryStore::open(dir.filePath(QStringLiteral("failing.db")));
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    const std::shared_ptr<SqlDirectoryStore> store = opened.value();
    QVERIFY(ReceiptFixture::insert(store->database(), 0, 1200, kKeys).isEmpty());
    ReceiptTableModel model;
    QVERIFY(!model.load(std::make_shared<ReceiptSummaryReader>(store)).isError());
    QCOMPARE(model.rowCount(), ReceiptTableModel::kPageSize);
    // The table goes away under the viewer, as when the file is swapped out.
    QSqlQuery rename(store->database());
    QVERIFY(rename.exec(QStringLiteral("ALTER TABLE receipts RENAME TO receipts_elsewhere")));
    QSignalSpy finished(&model, &ReceiptTableModel::loadFinished);
    ReceiptFilter filter;
    filter.status = Receipt::provenMaterial;
    model.setFilter(filter);
    QVERIFY(finished.wait(10000));
    QVERIFY(finished.first().first().toString().contains(QStringLiteral("receipts")));
    // The rows listed before would pass for this filter's: none is shown, none is asked for.
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.canFetchMore({}));
    QVERIFY(!model.isComplete());
    QVERIFY(rename.exec(QStringLiteral("ALTER TABLE receipts_elsewhere RENAME TO receipts")));
    // A refresh after the failure lists the filter's receipts anew, from the newest.
    model.refresh();
    QVERIFY(waitForLoad(model));
    QCOMPARE(model.rowCount(), ReceiptTableModel::kPageSize);
    QVERIFY(model.canFetchMore({}));
    QVERIFY(fetchAll(model));
    QCOMPARE(model.rowCount(), [&store] {
        QSqlQuery query(store->database());
        query.exec(
            QStringLiteral("SELECT count(*) FROM receipts WHERE status = '%1'").arg(Receipt::provenMaterial));
        return query.next() ? query.value(0).toInt() : -1;
    }());
}

void TestReceiptTableModel::durationText_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("text");
    QTest::addRow("under a millisecond") << qint64(0) << QStringLiteral("< 1 ms");
    QTest::addRow("one") << qint64(1) << QStringLiteral("1 ms");
    QTest::addRow("under a second") << qint64(999) << QStringLiteral("999 ms");
    QTest::addRow("a second") << qint64(1000) << QStringLiteral("1.00 s");
    QTest::addRow("ten seconds") << qint64(12345) << QStringLiteral("12.3 s");
}

void TestReceiptTableModel::durationText()
{
    QFETCH(qint64, ms);
    QFETCH(QString, text);
    QCOMPARE(ReceiptTableModel::durationText(ms), text);
}

QTEST_GUILESS_MAIN(TestReceiptTableModel)
#include "tst_receipttablemodel.moc"
