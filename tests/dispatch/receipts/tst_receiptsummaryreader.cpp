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
    void aWholeIdOrTraceIsFoundThroughItsIndex();
    void aKeyFilterOfManyKeysMatchesEachReceipt();
    void newerListsOnlyWhatArrivedAndPasses();
    void newerWithAKeyNoReceiptHasListsNothing();
    void countsTheWholeLogAtOneInstant();
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

void TestReceiptSummaryReader::aWholeIdOrTraceIsFoundThroughItsIndex()
{
    int calls = 0;
    ReceiptFilter id;
    id.search = ReceiptFixture::invocationId(5);
    // No time to spare, and still one call: the index answers, no window is scanned.
    QCOMPARE(pagedIds(id, 10, 0, &calls), QStringList{id.search});
    QCOMPARE(calls, 1);
    ReceiptFilter trace;
    trace.search = ReceiptFixture::receipt(3, kKeys).trace; // a flow of four
    const QStringList expected = sqlIds(QStringLiteral("trace = '%1'").arg(trace.search));
    QVERIFY(expected.size() > 1);
    QCOMPARE(pagedIds(trace, 10, 0, &calls), expected);
    QCOMPARE(calls, 1);
}

void TestReceiptSummaryReader::aKeyFilterOfManyKeysMatchesEachReceipt()
{
    // 700 keys: "rk_" names them all, more than an IN list takes, and "rk_06" 100 of them,
    // too large a share to be worth the index; "rk_066" names 10, looked up through it.
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    const std::shared_ptr<SqlDirectoryStore> store = opened.value();
    QVERIFY(ReceiptFixture::insert(store->database(), 0, 3000, 700).isEmpty());
    const ReceiptSummaryReader reader(store);
    const auto paged = [&reader](const QString &key) {
        ReceiptFilter filter;
        filter.key = key;
        std::vector<std::string> ids;
        qint64 before = 0;
        for (bool exhausted = false; !exhausted;) {
            const auto scan = reader.older(filter, before, 400, 0, [&ids](const ReceiptSummaryView &r) {
                ids.emplace_back(r.invocationId);
            });
            if (!scan.ok())
                qFatal("older() failed: %s", qPrintable(scan.error().message));
            before = scan.value().nextBeforeSeq;
            exhausted = scan.value().exhausted;
        }
        return idsOf(ids);
    };
    const auto sql = [&store](const QString &like) {
        QSqlQuery query(store->database());
        query.exec(
            QStringLiteral("SELECT invocation_id FROM receipts WHERE lower(key) LIKE '%%1%' ESCAPE '!' "
                           "ORDER BY seq DESC")
                .arg(like));
        QStringList ids;
        while (query.next())
            ids.append(query.value(0).toString());
        return ids;
    };
    QCOMPARE(paged(QStringLiteral("RK_")), sql(QStringLiteral("rk!_")));
    QCOMPARE(paged(QStringLiteral("rk_")).size(), 3000);
    QCOMPARE(paged(QStringLiteral("rk_06")), sql(QStringLiteral("rk!_06")));
    const QStringList few = paged(QStringLiteral("rk_066"));
    QVERIFY(!few.isEmpty());
    QCOMPARE(few, sql(QStringLiteral("rk!_066")));
    QCOMPARE(paged(QStringLiteral("no such key")), QStringList());
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

void TestReceiptSummaryReader::newerWithAKeyNoReceiptHasListsNothing()
{
    // The key filter names no key: no IN list is spelled (PostgreSQL refuses an empty one).
    ReceiptFilter filter;
    filter.key = QStringLiteral("no such key");
    int delivered = 0;
    const StoreError error = m_reader->newer(filter, 0, kReceipts, 1000,
                                             [&delivered](const ReceiptSummaryView &) { ++delivered; });
    QVERIFY2(!error.isError(), qPrintable(error.message));
    QCOMPARE(delivered, 0);
    filter.key = QStringLiteral("RK_0007");
    std::vector<std::string> ids;
    QVERIFY(!m_reader
                 ->newer(filter, kReceipts - 3000, kReceipts, 1000,
                         [&ids](const ReceiptSummaryView &r) { ids.emplace_back(r.invocationId); })
                 .isError());
    QStringList expected = sqlIds(QStringLiteral("seq > %1 AND key = 'RK_0007'").arg(kReceipts - 3000));
    std::reverse(expected.begin(), expected.end());
    QVERIFY(!expected.isEmpty());
    QCOMPARE(idsOf(ids), expected);
}

void TestReceiptSummaryReader::countsTheWholeLogAtOneInstant()
{
    const auto total = m_reader->total();
    QVERIFY2(total.ok(), qPrintable(total.error().message));
    QCOMPARE(total.value().count, qint64(kReceipts));
    QCOMPARE(total.value().throughSeq, qint64(kReceipts));
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
    const auto each = m_reader->durations(key, 100000);
    QCOMPARE(each.value().points, points);
    QCOMPARE(each.value().bucket, ReceiptSummaryReader::Bucket::Receipt);

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
    const auto bucketed = m_reader->durations(key, 10);
    QCOMPARE(bucketed.value().points, days);
    QCOMPARE(bucketed.value().bucket, ReceiptSummaryReader::Bucket::Day);
    // A span of n whole hours touches up to n + 2 hour buckets: that many points take
    // hours, one fewer take days.
    QVERIFY(query.exec(
        QStringLiteral("SELECT min(started_at), max(started_at) FROM receipts WHERE key = '%1'").arg(key)));
    QVERIFY(query.next());
    const qint64 spanMs = QDateTime::fromString(query.value(0).toString(), Qt::ISODateWithMs)
                              .msecsTo(QDateTime::fromString(query.value(1).toString(), Qt::ISODateWithMs));
    const int hourBuckets = int(spanMs / 3600000) + 2;
    const auto hours = m_reader->durations(key, hourBuckets);
    QCOMPARE(hours.value().bucket, ReceiptSummaryReader::Bucket::Hour);
    QVERIFY(hours.value().points.size() <= hourBuckets);
    QCOMPARE(m_reader->durations(key, hourBuckets - 1).value().bucket, ReceiptSummaryReader::Bucket::Day);
    QVERIFY(m_reader->durations(QStringLiteral("NO_SUCH_KEY"), 10).value().points.isEmpty());
}

CAPDESK_TEST_ON_BOTH_BACKENDS(TestReceiptSummaryReader)
#include "tst_receiptsummaryreader.moc"
