#include "dispatch/directory/localdirectory.h"
#include "models/lintcontroller.h"
#include "models/lintstate.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/deferredcontent.h"
#include "views/common/directorysession.h"
#include "views/editor/roweditorpanel.h"
#include "views/invoke/callpanel.h"
#include "views/invoke/invokepanel.h"
#include "views/invoke/shapepreviewpanel.h"
#include "views/lint/rowfindingsview.h"
#include "views/shell/editactions.h"
#include "views/shell/mainwindow.h"
#include "views/table/directorytableview.h"

#include <QApplication>
#include <QDockWidget>
#include <QLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTemporaryFile>

// The window on a laptop screen: the offscreen platform is given a 1280×800 screen (its
// own default is 800×600), and the window, its status bar and every dock tab must be on it.
class TestMainWindowFit : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void firstStartFitsTheScreen();
    void aGeometrySavedOnALargerScreenIsCut();
    void theEditorKeepsFieldsAndContentBesideFindings();
    void aDockFitsWithoutScrollingAsAWhole_data();
    void aDockFitsWithoutScrollingAsAWhole();

private:
    void openWindow();
    void verifyEverythingIsOnScreen();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<DirectorySession> m_session;
    std::unique_ptr<MainWindow> m_window;
};

void TestMainWindowFit::init()
{
    QSettings().clear();
    m_dir = std::make_unique<QTemporaryDir>();
    // AAA_FULL_NAME sorts first, so a window opens on a row with two arguments.
    const QList<Row> rows =
        sampleRows() << makeRow(
            QStringLiteral("AAA_FULL_NAME"), QStringLiteral("fn"), QStringLiteral("concat"),
            QStringLiteral("text"),
            QStringLiteral(
                "# WHAT: a full name\n# ARGS: $1=first name | $2=last name\n[\"$1\", \" \", \"$2\"]"));
    auto store = openStoreWithRows(m_dir->filePath(QStringLiteral("directory.db")), rows);
    QVERIFY(store);
    m_session = std::make_unique<DirectorySession>();
    QVERIFY(!m_session->open(LocalDirectory::over(store)).isError());
}

void TestMainWindowFit::cleanup()
{
    m_window.reset();
    m_session.reset();
    m_dir.reset();
}

void TestMainWindowFit::openWindow()
{
    m_window = std::make_unique<MainWindow>(*m_session, std::make_unique<FakePrompter>());
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    // The second fit, with the frame, runs from the event loop after the show.
    QTRY_VERIFY(m_window->screen()->availableGeometry().contains(m_window->frameGeometry()));
}

void TestMainWindowFit::verifyEverythingIsOnScreen()
{
    const QRect screen = m_window->screen()->availableGeometry();
    QCOMPARE(screen.size(), QSize(1280, 800));
    QVERIFY2(screen.contains(m_window->frameGeometry()), qPrintable(QStringLiteral("window %1,%2 %3×%4")
                                                                        .arg(m_window->x())
                                                                        .arg(m_window->y())
                                                                        .arg(m_window->width())
                                                                        .arg(m_window->height())));
    const QRect inside = m_window->rect();
    QStatusBar *status = m_window->statusBar();
    QVERIFY(status->isVisible());
    QVERIFY(inside.contains(QRect(status->mapTo(m_window.get(), QPoint(0, 0)), status->size())));

    // The tab bar QMainWindow makes for the tabbed docks: every dock's title on it, inside.
    QStringList titles;
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
        titles.append(dock->windowTitle());
    QTabBar *tabs = nullptr;
    for (QTabBar *bar : m_window->findChildren<QTabBar *>(Qt::FindDirectChildrenOnly)) {
        if (bar->isVisible())
            tabs = bar;
    }
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), titles.size());
    for (int index = 0; index < tabs->count(); ++index) {
        QVERIFY(titles.contains(tabs->tabText(index)));
        const QRect tab = tabs->tabRect(index);
        QVERIFY2(inside.contains(QRect(tabs->mapTo(m_window.get(), tab.topLeft()), tab.size())),
                 qPrintable(tabs->tabText(index)));
    }
}

void TestMainWindowFit::firstStartFitsTheScreen()
{
    openWindow();
    verifyEverythingIsOnScreen();
}

void TestMainWindowFit::aGeometrySavedOnALargerScreenIsCut()
{
    openWindow();
    m_window->setGeometry(100, 80, 1900, 1040);
    QVERIFY(m_window->close());
    m_window.reset();
    openWindow();
    verifyEverythingIsOnScreen();
}

// At 1280×800, with lint findings showing, the content editor keeps at least 8 lines and
// the form at least 4 fields; a row selected after scrolling the form starts at its top.
void TestMainWindowFit::theEditorKeepsFieldsAndContentBesideFindings()
{
    openWindow();
    RowEditorPanel *editor = m_window->editorPanel();
    QVERIFY(m_window->tableView()->selectKey(QStringLiteral("TRIAGE")));
    QTRY_VERIFY(editor->findingsView()->isVisible());
    QVERIFY(editor->findingsView()->count() > 0);

    auto *content = editor->findChild<QPlainTextEdit *>(QStringLiteral("content"));
    QVERIFY(content);
    QCOMPARE(content->lineWrapMode(), QPlainTextEdit::WidgetWidth);
    const int lines = content->viewport()->height() / content->fontMetrics().lineSpacing();
    QVERIFY2(lines >= RowEditorPanel::minimumContentLines, qPrintable(QString::number(lines)));

    QScrollArea *form = editor->formArea();
    const int fieldHeight = editor->findChild<QLineEdit *>(QStringLiteral("key"))->height();
    const int fields = form->viewport()->height() / fieldHeight;
    QVERIFY2(fields >= 4, qPrintable(QStringLiteral("%1 px of form, fields of %2 px")
                                         .arg(form->viewport()->height())
                                         .arg(fieldHeight)));

    QVERIFY(form->verticalScrollBar()->maximum() > 0);
    form->verticalScrollBar()->setValue(form->verticalScrollBar()->maximum());
    QVERIFY(m_window->tableView()->selectKey(QStringLiteral("NOW")));
    QCOMPARE(form->verticalScrollBar()->value(), 0);

    // The findings' room came from the docks, not from a window grown past the screen.
    QVERIFY(m_window->tableView()->selectKey(QStringLiteral("TRIAGE")));
    QTRY_VERIFY(editor->findingsView()->isVisible());
    QCoreApplication::processEvents();
    verifyEverythingIsOnScreen();
    // A new row shows the most findings, and problems under its key and type.
    m_window->editActions()->createRow(QStringLiteral("fn"));
    QTRY_VERIFY(editor->findingsView()->isVisible());
    QCoreApplication::processEvents();
    verifyEverythingIsOnScreen();
}

// At 1280×800 each dock's panel fits the dock, which then never scrolls as a whole around
// the panel's own scrolling parts (the Receipts dock did, its details scrolling inside it).
// Shape and invoke shows the first row, with two arguments: a row with many more grows its
// form, and that dock then scrolls as a whole.
void TestMainWindowFit::aDockFitsWithoutScrollingAsAWhole_data()
{
    QTest::addColumn<QString>("dock");
    QTest::addColumn<bool>("afterACall");
    QTest::newRow("Shape and invoke") << QStringLiteral("callDock") << false;
    QTest::newRow("Shape and invoke, after a call") << QStringLiteral("callDock") << true;
    QTest::newRow("Flow") << QStringLiteral("flowDock") << false;
    QTest::newRow("Receipts") << QStringLiteral("receiptDock") << false;
    QTest::newRow("Lint") << QStringLiteral("lintDock") << false;
}

void TestMainWindowFit::aDockFitsWithoutScrollingAsAWhole()
{
    QFETCH(QString, dock);
    QFETCH(bool, afterACall);
    openWindow();
    auto *shown = m_window->findChild<QDockWidget *>(dock);
    QVERIFY(shown);
    shown->raise();
    auto *scroll = qobject_cast<QScrollArea *>(shown->widget());
    QVERIFY(scroll);
    auto *holder = qobject_cast<DeferredContent *>(scroll->widget());
    QVERIFY(holder);
    QTRY_VERIFY(holder->isPlaced());
    const QList<QWidget *> panels = holder->findChildren<QWidget *>(Qt::FindDirectChildrenOnly);
    QCOMPARE(panels.size(), 1);
    // A panel may build its widgets when first shown (the Receipts viewer does).
    QTRY_VERIFY(panels.first()->isVisible());
    if (dock == QLatin1String("callDock"))
        QCOMPARE(m_window->callPanel()->shapePanel()->key(), QStringLiteral("AAA_FULL_NAME"));
    if (afterACall) {
        InvokePanel *invoke = m_window->callPanel()->invokePanel();
        auto *button = invoke->findChild<QPushButton *>(QStringLiteral("invokeButton"));
        QVERIFY(button && button->isEnabled());
        button->click();
        QTRY_VERIFY(!invoke->resultCaption().isEmpty());
    }
    // The layouts it asked for are posted: they run before the sizes are read.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    // What QScrollArea asks of a resizable widget: a panel holding a height-for-width item
    // (a word-wrapped label) is asked for its height at the width it has, and gets its
    // preferred layout rather than its minimum.
    const int has = scroll->viewport()->height();
    const int needed = holder->hasHeightForWidth() ? qMax(holder->minimumSizeHint().height(),
                                                          holder->heightForWidth(scroll->viewport()->width()))
                                                   : holder->minimumSizeHint().height();
    QVERIFY2(needed <= has,
             qPrintable(QStringLiteral("the panel needs %1 px, the dock has %2").arg(needed).arg(has)));
}

int main(int argc, char **argv)
{
    QTemporaryFile config;
    if (!config.open())
        return 2;
    config.write(R"({"screens":[{"name":"laptop","x":0,"y":0,"width":1280,"height":800,)"
                 R"("logicalDpi":96,"logicalBaseDpi":96,"dpr":1}]})");
    config.flush();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.fileName().toLocal8Bit());
    QApplication app(argc, argv);
    TestMainWindowFit test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_mainwindowfit.moc"
