#include "views/editor/contenthighlighter.h"

#include <QPlainTextEdit>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>

using Kind = ContentHighlighter::Kind;
using Span = ContentHighlighter::Span;
using Spans = QList<Span>;

Q_DECLARE_METATYPE(Span)

namespace QTest {
template<>
char *toString(const Span &span)
{
    return qstrdup(QByteArray::number(span.start) + ',' + QByteArray::number(span.length) + ':'
                   + QByteArray::number(int(span.kind)));
}
} // namespace QTest

// What each line of a row's content gets, by SPEC §2's grammar.
class TestContentHighlighter : public QObject
{
    Q_OBJECT

private slots:
    void spans_data();
    void spans();
    void formatsReachTheTextLayout();
    void placeholderKindsHaveDistinctColours();
    void docTagIsBold();
};

void TestContentHighlighter::spans_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<Spans>("expected");

    QTest::addRow("plain payload") << QStringLiteral("hello world") << Spans{};
    QTest::addRow("empty") << QString() << Spans{};
    QTest::addRow("WHAT tag") << QStringLiteral("# WHAT: the time")
                              << Spans{{0, 16, Kind::DocLine}, {2, 5, Kind::DocTag}};
    QTest::addRow("indented WHEN_TO_USE")
        << QStringLiteral("   # WHEN_TO_USE: x") << Spans{{3, 16, Kind::DocLine}, {5, 12, Kind::DocTag}};
    QTest::addRow("tag without space")
        << QStringLiteral("#ARGS: $1 = city") << Spans{{0, 16, Kind::DocLine}, {1, 5, Kind::DocTag}};
    QTest::addRow("EX tag, placeholders in docs stay doc")
        << QStringLiteral("# EX: [NOW]$1[/NOW]") << Spans{{0, 19, Kind::DocLine}, {2, 3, Kind::DocTag}};
    QTest::addRow("OUTPUT tag") << QStringLiteral("# OUTPUT: text")
                                << Spans{{0, 14, Kind::DocLine}, {2, 7, Kind::DocTag}};
    QTest::addRow("untagged description")
        << QStringLiteral("# Return the current time") << Spans{{0, 25, Kind::DocLine}};
    QTest::addRow("tag needs its colon") << QStringLiteral("# WHATEVER: x") << Spans{{0, 13, Kind::DocLine}};
    QTest::addRow("hash later in the line is payload")
        << QStringLiteral("a # $1") << Spans{{4, 2, Kind::Arg}};
    QTest::addRow("$N in JSON") << QStringLiteral("[\"$1\"]") << Spans{{2, 2, Kind::Arg}};
    QTest::addRow("many digits") << QStringLiteral("$12x") << Spans{{0, 3, Kind::Arg}};
    QTest::addRow("$N+") << QStringLiteral("$2+") << Spans{{0, 3, Kind::ArgRest}};
    QTest::addRow("$0 and a lone $ are literal") << QStringLiteral("$0 costs $ 5") << Spans{};
    QTest::addRow("$PREV") << QStringLiteral("$PREV") << Spans{{0, 5, Kind::Prev}};
    QTest::addRow("$PREVIOUS is a name") << QStringLiteral("$PREVIOUS") << Spans{{0, 9, Kind::Name}};
    QTest::addRow("$NAME with digits") << QStringLiteral("to $CITY_1.") << Spans{{3, 7, Kind::Name}};
    QTest::addRow("$_ starts a name") << QStringLiteral("$_X") << Spans{{0, 3, Kind::Name}};
    QTest::addRow("lowercase is literal") << QStringLiteral("$lower") << Spans{};
    QTest::addRow("$$N") << QStringLiteral("$$1") << Spans{{0, 3, Kind::Unescaped}};
    QTest::addRow("$$N+") << QStringLiteral("$$2+") << Spans{{0, 4, Kind::Unescaped}};
    QTest::addRow("$$PREV") << QStringLiteral("x$$PREV") << Spans{{1, 6, Kind::Unescaped}};
    QTest::addRow("$$NAME") << QStringLiteral("$$TOPIC") << Spans{{0, 7, Kind::Unescaped}};
    QTest::addRow("$$$1 starts one later") << QStringLiteral("$$$1") << Spans{{1, 3, Kind::Unescaped}};
    QTest::addRow("url template") << QStringLiteral("GET https://x/$1?q=$2+")
                                  << Spans{{14, 2, Kind::Arg}, {19, 3, Kind::ArgRest}};
    QTest::addRow("flow step") << QStringLiteral("{\"a\":\"$1\",\"b\":$NAME} > NEXT:$PREV")
                               << Spans{{6, 2, Kind::Arg}, {14, 5, Kind::Name}, {28, 5, Kind::Prev}};
}

void TestContentHighlighter::spans()
{
    QFETCH(QString, line);
    QFETCH(Spans, expected);
    QCOMPARE(ContentHighlighter::spans(line), expected);
}

void TestContentHighlighter::formatsReachTheTextLayout()
{
    // As the row editor uses it: on a plain-text editor's document.
    QPlainTextEdit edit;
    ContentHighlighter highlighter(edit.document());
    edit.setPlainText(QStringLiteral("# WHAT: echo\n[\"$1\", \"$PREV\"]"));

    // The tag's bold range splits the doc line's range in two.
    const QList<QTextLayout::FormatRange> doc = edit.document()->firstBlock().layout()->formats();
    QCOMPARE(doc.size(), 3);
    QCOMPARE(doc[0].start, 0);
    QCOMPARE(doc[0].length, 2);
    QVERIFY(doc[0].format.fontItalic());
    QCOMPARE(doc[0].format.foreground(), ContentHighlighter::format(Kind::DocLine).foreground());
    QCOMPARE(doc[1].start, 2);
    QCOMPARE(doc[1].length, 5);
    QCOMPARE(doc[1].format.fontWeight(), int(QFont::Bold));
    QCOMPARE(doc[2].start, 7);
    QCOMPARE(doc[2].length, 5);
    QCOMPARE(doc[2].format.foreground(), ContentHighlighter::format(Kind::DocLine).foreground());

    const QList<QTextLayout::FormatRange> payload = edit.document()->lastBlock().layout()->formats();
    QCOMPARE(payload.size(), 2);
    QCOMPARE(payload[0].start, 2);
    QCOMPARE(payload[0].length, 2);
    QCOMPARE(payload[0].format.foreground(), ContentHighlighter::format(Kind::Arg).foreground());
    QCOMPARE(payload[1].start, 8);
    QCOMPARE(payload[1].length, 5);
    QCOMPARE(payload[1].format.foreground(), ContentHighlighter::format(Kind::Prev).foreground());

    // Typing re-highlights at once: the doc line becomes payload with a placeholder.
    QTextCursor cursor(edit.document());
    cursor.deleteChar(); // the leading '#'
    const QList<QTextLayout::FormatRange> edited = edit.document()->firstBlock().layout()->formats();
    QVERIFY(edited.isEmpty());
}

void TestContentHighlighter::placeholderKindsHaveDistinctColours()
{
    const QList<Kind> kinds = {Kind::DocLine,   Kind::Arg,  Kind::ArgRest,
                               Kind::Unescaped, Kind::Prev, Kind::Name};
    for (qsizetype a = 0; a < kinds.size(); ++a) {
        for (qsizetype b = a + 1; b < kinds.size(); ++b) {
            QVERIFY2(
                ContentHighlighter::format(kinds[a]).foreground().color()
                    != ContentHighlighter::format(kinds[b]).foreground().color(),
                qPrintable(
                    QStringLiteral("kinds %1 and %2 share a colour").arg(int(kinds[a])).arg(int(kinds[b]))));
        }
    }
}

void TestContentHighlighter::docTagIsBold()
{
    QCOMPARE(ContentHighlighter::format(Kind::DocTag).fontWeight(), int(QFont::Bold));
    QVERIFY(ContentHighlighter::format(Kind::DocLine).fontWeight() != int(QFont::Bold));
}

QTEST_MAIN(TestContentHighlighter)
#include "tst_contenthighlighter.moc"
