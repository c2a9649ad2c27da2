#include "dispatch/core/clock.h"
#include "dispatch/core/isotime.h"
#include "dispatch/core/steppingclock.h"

#include <QTest>

class TestSteppingClock : public QObject
{
    Q_OBJECT

private slots:
    void staysPutUntilStepped();
    void stepsAndSets_data();
    void stepsAndSets();
    void systemClockIsUtcNow();
};

void TestSteppingClock::staysPutUntilStepped()
{
    const QDateTime start = QDateTime::fromMSecsSinceEpoch(1785040579832, Qt::UTC);
    SteppingClock clock(start);
    QCOMPARE(clock.now(), start);
    QCOMPARE(clock.now(), start);
    QCOMPARE(clock.now().timeSpec(), Qt::UTC);
}

void TestSteppingClock::stepsAndSets_data()
{
    QTest::addColumn<qint64>("step");
    QTest::addColumn<QString>("stamp");
    QTest::addRow("one ms") << qint64(1) << QStringLiteral("2026-07-26T04:36:19.833Z");
    QTest::addRow("across a second") << qint64(168) << QStringLiteral("2026-07-26T04:36:20.000Z");
    QTest::addRow("a day") << qint64(86400000) << QStringLiteral("2026-07-27T04:36:19.832Z");
}

void TestSteppingClock::stepsAndSets()
{
    QFETCH(qint64, step);
    QFETCH(QString, stamp);
    SteppingClock clock(QDateTime::fromString(QStringLiteral("2026-07-26T04:36:19.832Z"), Qt::ISODateWithMs));
    QCOMPARE(IsoTime::nowUtc(clock), QStringLiteral("2026-07-26T04:36:19.832Z"));
    clock.advance(step);
    QCOMPARE(IsoTime::nowUtc(clock), stamp);
    clock.set(QDateTime::fromString(QStringLiteral("2026-01-01T00:00:00.000Z"), Qt::ISODateWithMs));
    QCOMPARE(IsoTime::nowUtc(clock), QStringLiteral("2026-01-01T00:00:00.000Z"));
}

void TestSteppingClock::systemClockIsUtcNow()
{
    const QDateTime before = QDateTime::currentDateTimeUtc();
    const QDateTime now = Clock::system()->now();
    QCOMPARE(now.timeSpec(), Qt::UTC);
    QVERIFY(now >= before);
    QVERIFY(now <= QDateTime::currentDateTimeUtc());
    QCOMPARE(Clock::system(), Clock::system());
}

QTEST_GUILESS_MAIN(TestSteppingClock)
#include "tst_steppingclock.moc"
