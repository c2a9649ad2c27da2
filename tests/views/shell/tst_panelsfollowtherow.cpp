#include "dispatch/directory/localdirectory.h"
#include "models/callhistorymodel.h"
#include "models/directorydocument.h"
#include "tests/views/shell/samplewindow.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/directorysession.h"
#include "views/editor/roweditorpanel.h"
#include "views/editor/rowhistorypanel.h"
#include "views/flows/flowdebuggerpanel.h"
#include "views/flows/flowpane.h"
#include "views/invoke/callpanel.h"
#include "views/invoke/invokepanel.h"
#include "views/invoke/shapepreviewpanel.h"
#include "views/shell/editactions.h"
#include "views/shell/mainwindow.h"
#include "views/shell/runactions.h"
#include "views/table/directorytableview.h"
#include "views/table/filterbar.h"

#include <QAction>
#include <QLineEdit>
#include <QSettings>

using namespace Qt::StringLiterals;

// No panel shows another row's state: after each transition a user makes (select another
// row, hide the row with the filter, open the directory again, undo an edit of another
// row, make a new row), every panel shows the row the editor shows, or says it shows
// another, or is cleared. One data-driven test over panels × transitions.
class TestPanelsFollowTheRow : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void panelShowsTheEditorsRow_data();
    void panelShowsTheEditorsRow();

private:
    void transition(const QString &name);
    void invokeAndWait(const QString &key);

    std::unique_ptr<SampleWindow> m_sample;
};

void TestPanelsFollowTheRow::init()
{
    m_sample = std::make_unique<SampleWindow>();
    QVERIFY(m_sample->open());
}

void TestPanelsFollowTheRow::cleanup()
{
    m_sample.reset();
}

void TestPanelsFollowTheRow::invokeAndWait(const QString &key)
{
    InvokePanel *invoke = m_sample->window->callPanel()->invokePanel();
    const int before = invoke->history()->rowCount();
    QVERIFY(m_sample->window->tableView()->selectKey(key));
    m_sample->window->runActions()->invoke();
    QTRY_COMPARE(invoke->history()->rowCount(), before + 1);
}

// Every transition starts with a call of NOW made and a debug run of MORNING finished, so
// there is state a panel could wrongly keep.
void TestPanelsFollowTheRow::transition(const QString &name)
{
    invokeAndWait(u"NOW"_s);
    QVERIFY(m_sample->window->tableView()->selectKey(u"MORNING"_s));
    m_sample->window->flowPane()->debugger()->continueAction()->trigger();
    QTRY_VERIFY(m_sample->window->flowPane()->debugger()->status().startsWith(u"Finished in"_s));
    QVERIFY(m_sample->window->tableView()->selectKey(u"NOW"_s));

    DirectoryDocument *document = m_sample->session->document();
    if (name == u"select") {
        QVERIFY(m_sample->window->tableView()->selectKey(u"TRIAGE"_s));
    } else if (name == u"filter hides the row") {
        QTest::keyClicks(m_sample->window->filterBar()->searchEdit(), u"weather"_s);
    } else if (name == u"reopen") {
        auto store = openStoreWithRows(m_sample->path, {});
        QVERIFY(store);
        QVERIFY(!m_sample->session->open(LocalDirectory::over(store)).isError());
    } else if (name == u"undo another row's edit") {
        document->setField(u"MORNING"_s, u"category"_s, u"later"_s);
        QVERIFY(m_sample->window->tableView()->selectKey(u"TRIAGE"_s));
        QTest::keyClicks(m_sample->window->filterBar()->searchEdit(), u"triage"_s);
        m_sample->window->editActions()->undoAction()->trigger();
        QCOMPARE(m_sample->window->editorPanel()->key(), u"MORNING"_s);
    } else if (name == u"new row under a filter") {
        QTest::keyClicks(m_sample->window->filterBar()->searchEdit(), u"weather"_s);
        m_sample->window->editActions()->createRow(u"fn"_s);
    } else {
        QFAIL("unknown transition");
    }
}

void TestPanelsFollowTheRow::panelShowsTheEditorsRow_data()
{
    QTest::addColumn<QString>("transition");
    QTest::addColumn<QString>("panel");
    for (const QString &transition : {u"select"_s, u"filter hides the row"_s, u"reopen"_s,
                                      u"undo another row's edit"_s, u"new row under a filter"_s}) {
        for (const QString &panel : {u"table"_s, u"shape"_s, u"invoke"_s, u"flow"_s, u"history"_s})
            QTest::addRow("%s, %s", qPrintable(transition), qPrintable(panel)) << transition << panel;
    }
}

void TestPanelsFollowTheRow::panelShowsTheEditorsRow()
{
    QFETCH(QString, transition);
    QFETCH(QString, panel);
    this->transition(transition);
    if (QTest::currentTestFailed())
        return;
    const QString shown = m_sample->window->editorPanel()->key();

    if (panel == u"table") {
        // The table selects the editor's row, or, where the filter hides it, none at all.
        const QString current = m_sample->window->tableView()->currentKey();
        QVERIFY2(current == shown || (current.isEmpty() && transition == u"filter hides the row"),
                 qPrintable(u"table on %1, editor on %2"_s.arg(current, shown)));
    } else if (panel == u"shape") {
        QCOMPARE(m_sample->window->callPanel()->shapePanel()->key(), shown);
    } else if (panel == u"invoke") {
        // NOW's result: named as NOW's, and as not the shown row's when another is shown;
        // gone after a reopen.
        const QString caption = m_sample->window->callPanel()->invokePanel()->resultCaption();
        if (transition == u"reopen") {
            QCOMPARE(caption, QString());
        } else {
            QVERIFY2(caption.startsWith(u"Last result: NOW ("_s), qPrintable(caption));
            QCOMPARE(caption.endsWith(u", not "_s + shown), shown != u"NOW"_s && !shown.isEmpty());
        }
    } else if (panel == u"flow") {
        FlowDebuggerPanel *debugger = m_sample->window->flowPane()->debugger();
        QCOMPARE(debugger->key(), shown);
        // MORNING's finished run shows only while MORNING is the row.
        if (shown != u"MORNING"_s)
            QCOMPARE(debugger->status(), QString());
    } else if (panel == u"history") {
        const QString history = m_sample->window->editorPanel()->historyPanel()->key();
        QVERIFY2(history == shown || history.isEmpty(), qPrintable(history));
    }
}

QTEST_MAIN(TestPanelsFollowTheRow)
#include "tst_panelsfollowtherow.moc"
