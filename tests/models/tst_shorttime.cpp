#include "models/shorttime.h"

#include <QLocale>
#include <QTest>

using namespace Qt::StringLiterals;

// ShortTime in a fixed zone and locale (UTC, C): today's times alone, other days dated,
// and text that is no time left as it is.
class TestShortTime final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv("TZ", "UTC");
        QLocale::setDefault(QLocale::c());
    }

    void shortens_data()
    {
        QTest::addColumn<QString>("iso");
        QTest::addColumn<QString>("shown");

        QTest::addRow("today") << u"2026-12-03T03:46:02.123Z"_s << u"03:46"_s;
        QTest::addRow("today, no millis") << u"2026-12-03T23:59:00Z"_s << u"23:59"_s;
        QTest::addRow("another day") << u"2026-11-30T08:05:00.000Z"_s << u"30 Nov 2026 08:05"_s;
        QTest::addRow("not a time") << u"yesterday"_s << u"yesterday"_s;
        QTest::addRow("empty") << QString() << QString();
    }
    void shortens()
    {
        QFETCH(QString, iso);
        QFETCH(QString, shown);
        const QDateTime now = QDateTime::fromString(u"2026-12-03T12:00:00Z"_s, Qt::ISODate);
        QCOMPARE(ShortTime::of(iso, now), shown);
    }
};

QTEST_GUILESS_MAIN(TestShortTime)
#include "tst_shorttime.moc"
