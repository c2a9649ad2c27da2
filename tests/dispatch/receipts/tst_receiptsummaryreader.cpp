#include "dispatch/receipts/receiptsummaryreader.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/receiptfixture.h"
#include "tests/support/storebackend.h"

#include <QSqlQuery>
#include <QTest>

// The receipts viewer's queries on both engines, checked against plain SQL over 60,000
// generated receipts: more than one seq window, so a filter few receipts pass is read in
// steps that go on where the last one stopped.
class TestReceiptSummaryReader : public QObject
{
    Q_OBJECT

public:
    explicit TestReceiptSummaryReader(StoreBackend::Kind kind) : m_backend(kind) {}

private slots:
    void initTestCase();
    void pagesNewestFirstWithoutAFilter();
    void aRareMatchIsFoundInBudgetedSteps();
    void patternCharactersAreTakenLiterally();
    void newerListsOnlyWhatArrivedAndPasses();
    void countsUpToTheCap();
    void listsTheStatusesAndCallersInUse();
    void readsATraceOldestFirst();
    void durationsArePointsOrSqlBuckets();

private:
    QStringList sqlIds(const QString &where, int limit = -1) const;
    // Every page `older` gives for `filter`, from the newest down to the oldest.
    QStringList pagedIds(const ReceiptFilter &filter, int wanted, int budgetMs, int *calls = nullptr) const;

    StoreBackend m_backend;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::unique_ptr<ReceiptSummaryReader> m_reader;
    static constexpr int kReceipts = 60000;
    static constexpr int kKeys = 150;
};

namespace {

QStringList idsOf(const std::vector<std::string> &ids)
{
    QStringList list;
    for (const std::string &id : ids)
        list.append(QString::fromStdString(id));
    return list;
}

} // namespace

void TestReceiptSummaryReader::initTestCase()
{
    QVERIFY(m_backend.start());
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
    const QString error = ReceiptFixture::insert(m_store->database(), 0, kReceipts, kKeys);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_reader = std::make_unique<ReceiptSummaryReader>(m_store);
}

QStringList TestReceiptSummaryReader::sqlIds(const QString &where, int limit) const
{
    QSqlQuery query(m_store->database());
    QString sql = QStringLiteral("SELECT invocation_id FROM receipts %1 ORDER BY seq DESC")
                      .arg(where.isEmpty() ? QString() : QStringLiteral("WHERE ") + where);
    if (limit >= 0)
        sql += QStringLiteral(" LIMIT %1").arg(limit);
    if (!query.exec(sql))
        qFatal("bad test SQL: %s", qPrintable(sql));
    QStringList ids;
    while (query.next())
        ids.append(query.value(0).toString());
    return ids;
}

QStringList TestReceiptSummaryReader::pagedIds(const ReceiptFilter &filter, int wanted, int budgetMs,
                                               int *calls) const
{
    std::vector<std::string> ids;
    qint64 before = 0;
    for (int call = 1; call <= 1000; ++call) {
        const auto scan =
            m_reader->older(filter, before, wanted, budgetMs,
                            [&ids](const ReceiptSummaryView &r) { ids.emplace_back(r.invocationId); });
        if (!scan.ok())
            qFatal("older() failed: %s", qPrintable(scan.error().message));
        before = scan.value().nextBeforeSeq;
        if (scan.value().exhausted) {
            if (calls)
                *calls = call;
            break;
        }
    }
    return idsOf(ids);
}

void TestReceiptSummaryReader::pagesNewestFirstWithoutAFilter()
{
    std::vector<std::string> ids;
    const auto scan = m_reader->older(
        {}, 0, 500, 1000, [&ids](const ReceiptSummaryView &r) { ids.emplace_back(r.invocationId); });
    QVERIFY(scan.ok());
    QVERIFY(!scan.value().exhausted);
    QCOMPARE(idsOf(ids), sqlIds(QString(), 500));
    QCOMPARE(pagedIds({}, 7000, 1000), sqlIds(QString()));
}

void TestReceiptSummaryReader::aRareMatchIsFoundInBudgetedSteps()
{
    ReceiptFilter filter;
    filter.search = ReceiptFixture::invocationId(5).toUpper(); // typed in any case
    int calls = 0;
    // No time to spare: every call reads one window and hands over.
    const QStringList found = pagedIds(filter, 10, 0, &calls);
    QCOMPARE(found, QStringList{ReceiptFixture::invocationId(5)});
    QVERIFY2(calls >= 2, qPrintable(QString::number(calls)));
    // With time to spare it is one call, and the same answer.
    QCOMPARE(pagedIds(filter, 10, 60000, &calls), found);
    QCOMPARE(calls, 1);

    ReceiptFilter several;
    several.key = QStringLiteral("rk_01");
    several.status = Receipt::ranWithoutMaterial;
    several.actor = QStringLiteral("agent:planner");
    several.fromMsecs = ReceiptFixture::kStartMsecs + 3600000;
    several.toMsecs = ReceiptFixture::kStartMsecs + 20 * 3600000;
    const QString from =
        QDateTime::fromMSecsSinceEpoch(several.fromMsecs, Qt::UTC).toString(Qt::ISODateWithMs);
    const QString to = QDateTime::fromMSecsSinceEpoch(several.toMsecs, Qt::UTC).toString(Qt::ISODateWithMs);
    const QStringList expected =
        sqlIds(QStringLiteral("lower(key) LIKE '%rk_01%' AND status = '%1' AND actor = 'agent:planner' AND "
                              "started_at >= '%2' AND started_at <= '%3'")
                   .arg(Receipt::ranWithoutMaterial, from, to));
    QVERIFY(expected.size() > 10);
    QCOMPARE(pagedIds(several, 7, 0), expected);
}

void TestReceiptSummaryReader::patternCharactersAreTakenLiterally()
{
    // '_' and '%' are LIKE's wildcards: "rk%1" and "r_" must match no key, not every one.
    for (const QString &part : {QStringLiteral("rk%1"), QStringLiteral("r_"), QStringLiteral("!")}) {
        ReceiptFilter filter;
        filter.key = part;
        QCOMPARE(pagedIds(filter, 100, 60000), QStringList());
    }
    ReceiptFilter underscore;
    underscore.key = QStringLiteral("K_000");
    QCOMPARE(pagedIds(underscore, 100000, 60000), sqlIds(QStringLiteral("key LIKE 'RK!_000%' ESCAPE '!'")));
}

void TestReceiptSummaryReader::newerListsOnlyWhatArrivedAndPasses()
{
    ReceiptFilter filter;
    filter.status = Receipt::provenMaterial;
    std::vector<std::string> ids;
    QVERIFY(!m_reader
                 ->newer(filter, kReceipts - 100, kReceipts - 10, 1000,
                         [&ids](const ReceiptSummaryView &r) { ids.emplace_back(r.invocationId); })
                 .isError());
    QStringList expected = sqlIds(QStringLiteral("seq > %1 AND seq <= %2 AND status = '%3'")
                                      .arg(kReceipts - 100)
                                      .arg(kReceipts - 10)
                                      .arg(Receipt::provenMaterial));
    std::reverse(expected.begin(), expected.end()); // oldest first
    QCOMPARE(idsOf(ids), expected);
}

void TestReceiptSummaryReader::countsUpToTheCap()
{
    auto all = m_reader->count(0, kReceipts, 10000000);
    QVERIFY(all.ok());
    QCOMPARE(all.value().count, qint64(kReceipts));
    QVERIFY(!all.value().capped);
    auto capped = m_reader->count(0, kReceipts, 1000);
    QVERIFY(capped.ok());
    QCOMPARE(capped.value().count, qint64(1000));
    QVERIFY(capped.value().capped);
    auto some = m_reader->count(100, 250, 1000);
    QVERIFY(some.ok());
    QCOMPARE(some.value().count, qint64(150));
    QCOMPARE(m_reader->newestSeq().value(), qint64(kReceipts));
}

void TestReceiptSummaryReader::listsTheStatusesAndCallersInUse()
{
    QCOMPARE(m_reader->distinct(ReceiptSummaryReader::Column::Status).value(),
             QStringList({Receipt::provenMaterial, Receipt::ranWithoutMaterial}));
    QCOMPARE(m_reader->distinct(ReceiptSummaryReader::Column::Actor).value(),
             QStringList({QStringLiteral("agent:planner"), QStringLiteral("owner:terminal-key"),
                          QStringLiteral("token:tok_ab12")}));
}

void TestReceiptSummaryReader::readsATraceOldestFirst()
{
    const Receipt flow = ReceiptFixture::receipt(3, kKeys);
    std::vector<std::string> ids;
    QVERIFY(
        !m_reader
             ->trace(flow.trace, [&ids](const ReceiptSummaryView &r) { ids.emplace_back(r.invocationId); })
             .isError());
    QStringList expected;
    for (int n = 0; n < 4; ++n)
        expected.append(ReceiptFixture::invocationId(n));
    QCOMPARE(idsOf(ids), expected);
}

void TestReceiptSummaryReader::durationsArePointsOrSqlBuckets()
{
    const QString key = QStringLiteral("RK_0007");
    QSqlQuery query(m_store->database());
    QVERIFY(query.exec(
        QStringLiteral("SELECT started_at, duration_ms FROM receipts WHERE key = '%1' ORDER BY seq")
            .arg(key)));
    QList<QPointF> points;
    while (query.next())
        points.append(QPointF(
            double(QDateTime::fromString(query.value(0).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch()),
            query.value(1).toDouble()));
    QVERIFY(points.size() > 100);
    QCOMPARE(m_reader->durations(key, 100000).value(), points);

    // 60,000 receipts 1.5 s apart span 25 hours: at most 10 points are days, each its slowest.
    QVERIFY(
        query.exec(QStringLiteral("SELECT substr(started_at, 1, 10) AS day, max(duration_ms) FROM receipts "
                                  "WHERE key = '%1' GROUP BY substr(started_at, 1, 10) ORDER BY day")
                       .arg(key)));
    QList<QPointF> days;
    while (query.next())
        days.append(
            QPointF(double(QDateTime::fromString(query.value(0).toString() + QStringLiteral("T00:00:00.000Z"),
                                                 Qt::ISODateWithMs)
                               .toMSecsSinceEpoch()),
                    query.value(1).toDouble()));
    QCOMPARE(days.size(), 2);
    QCOMPARE(m_reader->durations(key, 10).value(), days);
    QVERIFY(m_reader->durations(QStringLiteral("NO_SUCH_KEY"), 10).value().isEmpty());
}

CAPDESK_TEST_ON_BOTH_BACKENDS(TestReceiptSummaryReader)
#include "tst_receiptsummaryreader.moc"
