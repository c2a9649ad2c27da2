#include "dispatch/tokens/capabilitygaterefusalcounter.h"

#include <QTest>

using namespace Qt::StringLiterals;

// Item 11 of issue 13: refusals of unknown tokens reach the log as at most one summary
// per interval, the first of a quiet spell at once.
class TestCapabilityGateRefusalCounter : public QObject
{
    Q_OBJECT

private slots:
    void summariesPerInterval_data();
    void summariesPerInterval();
    void aSummaryCarriesTheCountAndItsSpan();
};

void TestCapabilityGateRefusalCounter::summariesPerInterval_data()
{
    QTest::addColumn<QList<qint64>>("refusalsAtMs");
    QTest::addColumn<int>("writtenAtOnce");
    QTest::addColumn<qint64>("leftPending");
    QTest::addRow("one probe is written at once") << QList<qint64>{0} << 1 << qint64(0);
    QTest::addRow("a burst: the first, the rest counted")
        << QList<qint64>{0, 1, 2, 3, 4, 5} << 1 << qint64(5);
    QTest::addRow("two quiet spells") << QList<qint64>{0, 60'000} << 2 << qint64(0);
    QTest::addRow("a burst over three intervals")
        << QList<qint64>{0, 10, 59'999, 60'000, 60'001, 120'000, 120'500} << 3 << qint64(1);
}

void TestCapabilityGateRefusalCounter::summariesPerInterval()
{
    QFETCH(QList<qint64>, refusalsAtMs);
    QFETCH(int, writtenAtOnce);
    QFETCH(qint64, leftPending);
    CapabilityGateRefusalCounter counter(60'000);
    int written = 0;
    for (qint64 at : refusalsAtMs) {
        if (counter.count(at, u"t"_s)) {
            counter.take(at);
            ++written;
        }
    }
    QCOMPARE(written, writtenAtOnce);
    QCOMPARE(counter.pending(), leftPending);
    if (leftPending > 0)
        QVERIFY(counter.dueIn(refusalsAtMs.last()) > 0);
}

void TestCapabilityGateRefusalCounter::aSummaryCarriesTheCountAndItsSpan()
{
    CapabilityGateRefusalCounter counter(1'000);
    QVERIFY(counter.count(0, u"a"_s));
    counter.take(0);
    QVERIFY(!counter.count(10, u"b"_s));
    QVERIFY(!counter.count(20, u"c"_s));
    QCOMPARE(counter.dueIn(20), 980);
    QCOMPARE(counter.dueIn(1'000), 0);
    const CapabilityGateRefusalCounter::Summary summary = counter.take(1'000);
    QCOMPARE(summary.count, 2);
    QCOMPARE(summary.firstAt, u"b"_s);
    QCOMPARE(summary.lastAt, u"c"_s);
    QCOMPARE(counter.pending(), 0);
}

QTEST_GUILESS_MAIN(TestCapabilityGateRefusalCounter)
#include "tst_capabilitygaterefusalcounter.moc"
