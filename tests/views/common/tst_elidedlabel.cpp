#include "views/common/elidedlabel.h"

#include <QTest>

// A label in one line: cut to its width with the whole text in its tooltip, and asking for
// no height that depends on its width.
class TestElidedLabel : public QObject
{
    Q_OBJECT

private slots:
    void aTextIsCutToTheWidth_data();
    void aTextIsCutToTheWidth();
    void itAsksForOneLineAndFewCharacters();
    void aLineBreakIsShownAsASpace();
    void aWiderFontCutsAgain();
};

void TestElidedLabel::aTextIsCutToTheWidth_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<bool>("cut");
    QTest::newRow("wide enough") << 2000 << false;
    QTest::newRow("narrower than the text") << 120 << true;
}

void TestElidedLabel::aTextIsCutToTheWidth()
{
    QFETCH(int, width);
    QFETCH(bool, cut);
    const QString text = QStringLiteral("10 receipts · Receipts are signed with a key kept in the file "
                                        "/srv/capdesk/directory.db.signing-key, readable by your user only.");
    ElidedLabel label;
    label.setFullText(text);
    label.resize(width, label.sizeHint().height());
    label.show();
    QVERIFY(QTest::qWaitForWindowExposed(&label));
    QCOMPARE(label.fullText(), text);
    if (!cut) {
        QCOMPARE(label.text(), text);
        QVERIFY(label.toolTip().isEmpty());
        return;
    }
    QVERIFY2(label.text().endsWith(QChar(0x2026)), qPrintable(label.text()));
    QVERIFY(text.startsWith(label.text().chopped(1)));
    QVERIFY(label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width());
    QCOMPARE(label.toolTip(), text);
    // Wider again, the whole text comes back.
    label.resize(label.sizeHint().width() + 10, label.height());
    QTRY_COMPARE(label.text(), text);
    QVERIFY(label.toolTip().isEmpty());
}

void TestElidedLabel::itAsksForOneLineAndFewCharacters()
{
    ElidedLabel label;
    label.setFullText(QString(500, QLatin1Char('x')));
    QVERIFY(!label.hasHeightForWidth());
    QCOMPARE(label.minimumSizeHint().height(), label.fontMetrics().height());
    QVERIFY(label.minimumSizeHint().width()
            < label.fontMetrics().horizontalAdvance(QString(40, QLatin1Char('x'))));
    QVERIFY(label.sizeHint().width() >= label.fontMetrics().horizontalAdvance(label.fullText()));
}

void TestElidedLabel::aLineBreakIsShownAsASpace()
{
    ElidedLabel label;
    label.setFullText(QStringLiteral("first line\nsecond line"));
    label.resize(label.sizeHint());
    label.show();
    QVERIFY(QTest::qWaitForWindowExposed(&label));
    QCOMPARE(label.width(), label.sizeHint().width());
    QCOMPARE(label.text(), QStringLiteral("first line second line"));
    QCOMPARE(label.fullText(), QStringLiteral("first line\nsecond line"));
    QCOMPARE(label.accessibleName(), label.fullText());
    // Shown whole on its line, yet not the text given: the tooltip has that.
    QCOMPARE(label.toolTip(), label.fullText());
}

void TestElidedLabel::aWiderFontCutsAgain()
{
    ElidedLabel label;
    const QString text = QStringLiteral("a line that fits in its normal weight");
    label.setFullText(text);
    label.resize(label.sizeHint());
    label.show();
    QVERIFY(QTest::qWaitForWindowExposed(&label));
    QCOMPARE(label.text(), text);
    QFont wider = label.font();
    wider.setLetterSpacing(QFont::AbsoluteSpacing, 4);
    label.setFont(wider);
    QVERIFY2(label.text().endsWith(QChar(0x2026)), qPrintable(label.text()));
    QVERIFY(label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width());
}

QTEST_MAIN(TestElidedLabel)
#include "tst_elidedlabel.moc"
