#include "views/receipts/receiptfilterbar.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QSignalBlocker>
#include <QSignalSpy>
#include <QTest>

#include <cstdlib>

// The time range of the Receipts dock's filters: a bound nobody set by hand is taken from
// the clock when it is ticked; one set by hand is kept.
class TestReceiptFilterBar final : public QObject
{
    Q_OBJECT

private slots:
    void aBoundTickedFollowsTheClockUnlessSetByHand_data()
    {
        QTest::addColumn<bool>("to");
        QTest::addColumn<bool>("byHand");
        QTest::addRow("to, as built") << true << false;
        QTest::addRow("to, set by hand") << true << true;
        QTest::addRow("from, as built") << false << false;
        QTest::addRow("from, set by hand") << false << true;
    }

    void aBoundTickedFollowsTheClockUnlessSetByHand()
    {
        QFETCH(bool, to);
        QFETCH(bool, byHand);
        ReceiptFilterBar bar;
        QCheckBox *check = to ? bar.toCheck() : bar.fromCheck();
        QDateTimeEdit *edit = to ? bar.toEdit() : bar.fromEdit();
        // The dock was built an hour ago, as far as the bound's default goes.
        const QDateTime hourAgo = QDateTime::currentDateTimeUtc().addSecs(-3600);
        const QDateTime handSet = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC);
        if (byHand) {
            edit->setDateTime(handSet);
        } else {
            const QSignalBlocker asBuilt(edit);
            edit->setDateTime(to ? hourAgo : hourAgo.addDays(-1));
        }
        QSignalSpy changed(&bar, &ReceiptFilterBar::filterChanged);
        const QDateTime ticked = QDateTime::currentDateTimeUtc();
        check->setChecked(true);
        QCOMPARE(changed.size(), 1);
        const qint64 bound = to ? bar.filter().toMsecs : bar.filter().fromMsecs;
        if (byHand) {
            QCOMPARE(edit->dateTime(), handSet);
            return;
        }
        const QDateTime expected = to ? ticked : ticked.addDays(-1);
        QVERIFY2(std::abs(bound - expected.toMSecsSinceEpoch()) < 60 * 1000,
                 qPrintable(QDateTime::fromMSecsSinceEpoch(bound, Qt::UTC).toString(Qt::ISODate)));
    }
};

QTEST_MAIN(TestReceiptFilterBar)
#include "tst_receiptfilterbar.moc"
