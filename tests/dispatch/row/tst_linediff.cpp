#include "dispatch/row/linediff.h"

#include <QTest>

namespace {

// "=a" kept, "-a" removed, "+a" added.
QStringList describe(const QList<LineDiff::Line> &lines)
{
    QStringList out;
    for (const LineDiff::Line &line : lines) {
        const QChar mark = line.kind == LineDiff::Kind::Same      ? u'='
                           : line.kind == LineDiff::Kind::Removed ? u'-'
                                                                  : u'+';
        out.append(mark + line.text);
    }
    return out;
}

} // namespace

class TestLineDiff final : public QObject
{
    Q_OBJECT

private slots:
    void compares_data();
    void compares();
};

void TestLineDiff::compares_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::addColumn<QStringList>("expected");

    auto list = [](const char *text) { return QString::fromUtf8(text).split(u' '); };
    QTest::addRow("same") << "a\nb"
                          << "a\nb" << list("=a =b");
    QTest::addRow("one line changed") << "a\nb\nc"
                                      << "a\nB\nc" << list("=a -b +B =c");
    QTest::addRow("line added at the end") << "a\nb"
                                           << "a\nb\nc" << list("=a =b +c");
    QTest::addRow("line removed at the start") << "a\nb"
                                               << "b" << list("-a =b");
    QTest::addRow("from nothing") << ""
                                  << "a\nb" << list("+a +b");
    QTest::addRow("to nothing") << "a"
                                << "" << list("-a");
    QTest::addRow("moved line") << "a\nb\nc\nd"
                                << "a\nc\nb\nd" << list("=a -b =c +b =d");
    QTest::addRow("removed before added") << "x\n1\n2\ny"
                                          << "x\n3\n4\ny" << list("=x -1 -2 +3 +4 =y");
}

void TestLineDiff::compares()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    QFETCH(QStringList, expected);
    QCOMPARE(describe(LineDiff::compare(before, after)), expected);
}

QTEST_GUILESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
