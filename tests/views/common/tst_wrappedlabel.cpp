#include "views/common/wrappedlabel.h"

#include <QTest>

// A wrapped label that asks for the lines its width needs as a fixed height.
class TestWrappedLabel : public QObject
{
    Q_OBJECT

private slots:
    void itAsksForTheLinesItsWidthNeeds();
};

void TestWrappedLabel::itAsksForTheLinesItsWidthNeeds()
{
    WrappedLabel label;
    label.setText(
        QStringLiteral("Cannot sign receipts: this directory signs with key fdb365bcca10c92c, and this "
                       "machine does not hold it. Put back the key file from where the directory came "
                       "from, or start a new key."));
    QVERIFY(label.wordWrap());
    QVERIFY(!label.hasHeightForWidth());
    const int line = label.fontMetrics().lineSpacing();

    label.resize(2000, 10);
    label.show();
    QVERIFY(QTest::qWaitForWindowExposed(&label));
    QTRY_COMPARE(label.width(), 2000);
    const int wide = label.minimumSizeHint().height();
    QCOMPARE(label.sizeHint().height(), wide);
    QVERIFY2(wide < 2 * line, qPrintable(QString::number(wide)));

    label.resize(200, 10);
    QTRY_COMPARE(label.width(), 200);
    const int narrow = label.minimumSizeHint().height();
    QCOMPARE(narrow, label.heightForWidth(200));
    QVERIFY2(narrow >= 4 * line, qPrintable(QString::number(narrow)));
    // It never asks for more width than a few words.
    QVERIFY(label.minimumSizeHint().width() < 200);
}

QTEST_MAIN(TestWrappedLabel)
#include "tst_wrappedlabel.moc"
