#include "models/fuzzymatch.h"

#include <QTest>

using namespace Qt::StringLiterals;

// FuzzyMatch: which names a palette query finds, and which of two names ranks first.
class TestFuzzyMatch final : public QObject
{
    Q_OBJECT

private slots:
    void matches_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("matches");

        QTest::addRow("empty query") << u""_s << u"NOW"_s << true;
        QTest::addRow("exact") << u"NOW"_s << u"NOW"_s << true;
        QTest::addRow("ignores case") << u"wiki"_s << u"WIKI_SUMMARY"_s << true;
        QTest::addRow("subsequence") << u"wksum"_s << u"WIKI_SUMMARY"_s << true;
        QTest::addRow("out of order") << u"mw"_s << u"WIKI_SUMMARY"_s << false;
        QTest::addRow("missing letter") << u"wikx"_s << u"WIKI_SUMMARY"_s << false;
        QTest::addRow("longer than text") << u"NOWW"_s << u"NOW"_s << false;
        QTest::addRow("action text") << u"tog lint"_s << u"Toggle Lint dock"_s << true;
        QTest::addRow("non-ASCII") << u"ÉTÉ"_s << u"météo_été"_s << true;
        QTest::addRow("a later word start would strand the rest")
            << u"mail"_s << u"GMAIL_SEND_MESSAGE"_s << true;
        QTest::addRow("short text, word start after") << u"bc"_s << u"abc_b"_s << true;
    }
    void matches()
    {
        QFETCH(QString, query);
        QFETCH(QString, text);
        QFETCH(bool, matches);
        QCOMPARE(FuzzyMatch::score(query, text) != FuzzyMatch::noMatch, matches);
    }

    void ranks_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("better");
        QTest::addColumn<QString>("worse");

        QTest::addRow("prefix first") << u"wiki"_s << u"WIKI_SUMMARY"_s << u"GET_WIKI"_s;
        QTest::addRow("word starts over scattered") << u"ws"_s << u"WIKI_SUMMARY"_s << u"NEWS"_s;
        QTest::addRow("run over gaps") << u"send"_s << u"EMAIL_SEND"_s << u"SLACK_EXTENDED"_s;
        QTest::addRow("exact over longer") << u"now"_s << u"NOW"_s << u"NOW_UTC_PLUS"_s;
        QTest::addRow("camel word start") << u"sr"_s << u"Save Row"_s << u"Search"_s;
    }
    void ranks()
    {
        QFETCH(QString, query);
        QFETCH(QString, better);
        QFETCH(QString, worse);
        const int high = FuzzyMatch::score(query, better);
        const int low = FuzzyMatch::score(query, worse);
        QVERIFY2(high > low,
                 qPrintable(u"%1 scored %2, %3 scored %4"_s.arg(better).arg(high).arg(worse).arg(low)));
    }
};

QTEST_GUILESS_MAIN(TestFuzzyMatch)
#include "tst_fuzzymatch.moc"
