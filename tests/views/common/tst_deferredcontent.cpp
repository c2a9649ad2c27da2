#include "views/common/deferredcontent.h"

#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QTabWidget>
#include <QTest>

// A panel held back until it is seen: behind a tab, and in a dock behind another dock's
// tab, it is neither shown nor measured; chosen, it is placed and shown.
class TestDeferredContent final : public QObject
{
    Q_OBJECT

    // A word-wrapped label that counts how often a layout measured it.
    class CountingLabel final : public QLabel
    {
    public:
        CountingLabel() : QLabel(QStringLiteral("a panel's long explanation, wrapped to its width"))
        {
            setWordWrap(true);
        }
        int heightForWidth(int width) const override
        {
            ++measured;
            return QLabel::heightForWidth(width);
        }
        QSize sizeHint() const override
        {
            ++measured;
            return QLabel::sizeHint();
        }
        mutable int measured = 0;
    };

private slots:
    void aTabNotChosenIsPlacedOnceChosen()
    {
        QTabWidget tabs;
        auto *shownLabel = new CountingLabel;
        auto *laterLabel = new CountingLabel;
        auto *shown = new DeferredContent(shownLabel);
        auto *later = new DeferredContent(laterLabel);
        tabs.addTab(shown, QStringLiteral("Shown"));
        tabs.addTab(later, QStringLiteral("Later"));
        tabs.resize(400, 300);
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        // The tab not chosen gets no show event, so nothing ever places it on its own.
        QTRY_VERIFY(shown->isPlaced());
        QVERIFY(shownLabel->isVisible());
        QVERIFY(!later->isPlaced());
        QVERIFY(!laterLabel->isVisible());
        QCOMPARE(laterLabel->measured, 0);

        tabs.setCurrentWidget(later);
        QTRY_VERIFY(later->isPlaced());
        QVERIFY(laterLabel->isVisible());
        QVERIFY(laterLabel->measured > 0);
    }

    // A tabbed dock area keeps the docks behind its current tab shown, off screen.
    void aDockBehindAnotherTabIsPlacedOnceItsTabIsChosen()
    {
        QMainWindow window;
        window.setCentralWidget(new QLabel(QStringLiteral("centre")));
        QList<DeferredContent *> holders;
        QList<QDockWidget *> docks;
        QList<CountingLabel *> labels;
        for (const QString &title : {QStringLiteral("Front"), QStringLiteral("Behind")}) {
            auto *label = new CountingLabel;
            auto *holder = new DeferredContent(label);
            auto *dock = new QDockWidget(title, &window);
            dock->setWidget(holder);
            holder->followDock(dock);
            window.addDockWidget(Qt::BottomDockWidgetArea, dock);
            holders.append(holder);
            docks.append(dock);
            labels.append(label);
        }
        window.tabifyDockWidget(docks[0], docks[1]);
        docks[0]->raise();
        window.resize(600, 400);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Both holders were shown, and both checks ran by the time the front one is placed.
        QTRY_VERIFY(holders[0]->isPlaced());
        QVERIFY(docks[1]->isVisible());
        QVERIFY(!holders[1]->isPlaced());
        QCOMPARE(labels[1]->measured, 0);

        docks[1]->raise();
        QTRY_VERIFY(holders[1]->isPlaced());
        QVERIFY(labels[1]->isVisible());
        QVERIFY(!labels[1]->visibleRegion().isEmpty());
    }

    // Closed from the View menu and opened again: a dock's show places it.
    void aHiddenDockIsPlacedWhenShownAgain()
    {
        QMainWindow window;
        window.setCentralWidget(new QLabel(QStringLiteral("centre")));
        auto *label = new CountingLabel;
        auto *holder = new DeferredContent(label);
        auto *dock = new QDockWidget(QStringLiteral("Closed"), &window);
        dock->setWidget(holder);
        window.addDockWidget(Qt::BottomDockWidgetArea, dock);
        dock->hide();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!holder->isPlaced());

        dock->toggleViewAction()->trigger();
        QTRY_VERIFY(holder->isPlaced());
        QVERIFY(label->isVisible());
    }
};

QTEST_MAIN(TestDeferredContent)
#include "tst_deferredcontent.moc"
