#include "dispatch/flows/run/flowdebugsession.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "models/directorydocument.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/worldeffectgate.h"
#include "views/flows/flowdebuggerpanel.h"
#include "views/flows/flowsteplogview.h"
#include "views/flows/flowtimelineview.h"
#include "views/flows/flowvariablesview.h"
#include "views/flows/flowvisualizerview.h"
#include "views/flows/stepoutputdialog.h"

#include <QAction>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTcpServer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

const QString blooioFinish =
    u"# Phase C of the inbound turn: given the full agent output text in $1, extract the\n"
    u"#   LAST [REPLY], send via blooio to $2, return the send result.\n"
    u"# $1=agent output text. $2=recipient phone.\n"
    u"LAST_REPLY_OF: $1\n"
    u"> SEND_BY_CHANNEL: blooio|$2|$PREV"_s;

const QString agentText = u"Checking the calendar… [REPLY]draft[/REPLY] then [REPLY]See you at 5 😀[/REPLY]"_s;
const QString phone = u"+15551234567"_s;

} // namespace

// The debugger panel driven by its keys against the real dispatcher: the article's
// BLOOIO_FINISH stepped through with F10 against an upstream on 127.0.0.1, the variables
// pane checked before every step; a fan-out with a breakpoint, a rerun and the timeline.
// Saves PNGs of what it shows when CAPDESK_SHOTS names a folder.
class TestFlowDebuggerPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void stepsThroughBlooioFinish();
    void breakpointRerunAndTimeline();
    void abortStopsTheRun();
    void aParseErrorRunsNothing();
    void aWorldChangingRunAsksOnceNamingItsSteps();
    void anotherFlowOrDirectoryStartsOver();
    void keysWorkWindowWideWhileARunGoes();

private:
    void press(Qt::Key key);
    void clickNode(int step, int branch);
    QString variable(const QString &path) const { return m_panel->variables()->value(path); }
    void shoot(const QString &name);

    QHttpServer m_upstream;
    quint16 m_port = 0;
    QList<QPair<QString, QByteArray>> m_sent; // path, body
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    std::unique_ptr<StandardDispatcher> m_dispatcher;
    std::unique_ptr<DirectoryDocument> m_document;
    std::unique_ptr<FlowDebuggerPanel> m_panel;
};

void TestFlowDebuggerPanel::initTestCase()
{
    m_upstream.route(u"/send/<arg>"_s, [this](const QString &channel, const QHttpServerRequest &request) {
        m_sent.append({channel, request.body()});
        return QHttpServerResponse(QJsonObject{{u"ok"_s, true}, {u"id"_s, u"msg_1"_s}});
    });
    m_port = m_upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(m_port != 0);
}

void TestFlowDebuggerPanel::init()
{
    m_sent.clear();
    m_dir = std::make_unique<QTemporaryDir>();
    const QString fn = u"fn"_s;
    m_store = openStoreWithRows(
        m_dir->filePath(u"d.db"_s),
        {makeRow(u"LAST_REPLY_OF"_s, fn, u"last_reply_of"_s, {}),
         makeRow(u"SEND_BY_CHANNEL"_s, u"http"_s, u"POST http://127.0.0.1:%1/send/$1"_s.arg(m_port), {},
                 u"{\"to\":\"$2\",\"text\":\"$3+\"}"_s),
         makeRow(u"BLOOIO_FINISH"_s, u"flow"_s, {}, {}, blooioFinish),
         makeRow(u"NAP"_s, fn, u"sleep_ms"_s, {}), makeRow(u"SHOUT"_s, fn, u"upper"_s, {}),
         makeRow(u"BOTH_NAPS"_s, u"flow"_s, {}, {}, u"{ NAP: 300 | NAP: 400 } => NAPS > SHOUT: $NAPS"_s),
         makeRow(u"BROKEN"_s, u"flow"_s, {}, {}, u"SHOUT >"_s),
         makeRow(u"QUICK"_s, u"flow"_s, {}, {}, u"SHOUT: $1 > SHOUT: $PREV"_s),
         makeRow(u"FAILS"_s, u"flow"_s, {}, {}, u"SHOUT: x > NO_SUCH_ROW"_s)});
    QVERIFY(m_store);
    m_ledger = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly);
    m_dispatcher = std::make_unique<StandardDispatcher>(m_store, m_ledger);
    m_document = std::make_unique<DirectoryDocument>(m_store);
    QVERIFY(!m_document->load().isError());
    m_panel = std::make_unique<FlowDebuggerPanel>(*m_dispatcher);
    m_panel->setDocument(m_document.get());
    m_panel->resize(1100, 720);
    m_panel->show();
    m_panel->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_panel.get()));
}

void TestFlowDebuggerPanel::cleanup()
{
    m_panel.reset();
    m_document.reset();
    m_dispatcher.reset();
    m_ledger.reset();
    m_store.reset();
    m_dir.reset();
}

void TestFlowDebuggerPanel::press(Qt::Key key)
{
    m_panel->visualizer()->setFocus();
    QTest::keyClick(m_panel->visualizer(), key);
}

void TestFlowDebuggerPanel::clickNode(int step, int branch)
{
    FlowVisualizerView *view = m_panel->visualizer();
    const FlowNodeItem *node = view->node(step, branch);
    view->ensureVisible(node->sceneBoundingRect());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->mapFromScene(node->sceneBoundingRect().center() + QPointF(0, 6)));
}

void TestFlowDebuggerPanel::shoot(const QString &name)
{
    const QString folder = qEnvironmentVariable("CAPDESK_SHOTS");
    if (!folder.isEmpty())
        m_panel->grab().save(folder + u'/' + name + u".png"_s);
}

void TestFlowDebuggerPanel::stepsThroughBlooioFinish()
{
    m_panel->showRow(u"BLOOIO_FINISH"_s);
    m_panel->setBody(agentText + u'|' + phone);

    press(Qt::Key_F10);
    QTRY_COMPARE(m_panel->status(), u"Paused before step 1: LAST_REPLY_OF"_s);
    QCOMPARE(variable(u"$PREV"_s), agentText + u'|' + phone);
    QCOMPARE(variable(u"$1"_s), agentText);
    QCOMPARE(variable(u"$2"_s), phone);
    QCOMPARE(variable(u"body"_s), agentText);
    QCOMPARE(variable(u"target"_s), u"LAST_REPLY_OF (fn) last_reply_of"_s);
    QCOMPARE(variable(u"output"_s), QString());
    QCOMPARE(m_panel->visualizer()->node(0, 0)->state(), FlowNodeItem::State::Pending);

    press(Qt::Key_F10);
    QTRY_COMPARE(m_panel->status(), u"Paused before step 2: SEND_BY_CHANNEL"_s);
    QCOMPARE(variable(u"$PREV"_s), u"See you at 5 😀"_s);
    QCOMPARE(variable(u"$2"_s), phone);
    QCOMPARE(variable(u"body"_s), u"blooio|+15551234567|See you at 5 😀"_s);
    QCOMPARE(variable(u"target"_s), u"SEND_BY_CHANNEL (http) POST http://127.0.0.1:%1/send/$1"_s.arg(m_port));
    QCOMPARE(m_panel->visualizer()->node(0, 0)->state(), FlowNodeItem::State::Done);
    QCOMPARE(m_panel->stepLog()->topLevelItemCount(), 1);
    QVERIFY(m_sent.isEmpty());
    shoot(u"flow-debugger-blooio-paused"_s);

    press(Qt::Key_F10);
    QTRY_VERIFY(m_panel->status().startsWith(u"Finished in"_s));
    const QString sent = u"HTTP 200:{\"id\":\"msg_1\",\"ok\":true}"_s;
    QCOMPARE(variable(u"output"_s), sent);
    QCOMPARE(variable(u"flow output"_s), sent);
    QVERIFY(variable(u"duration"_s).endsWith(u" ms"_s));
    const QString receipt = variable(u"receipt"_s);
    QVERIFY(m_ledger->receipts().find(receipt).ok());
    QCOMPARE(m_sent.size(), 1);
    QCOMPARE(m_sent[0].first, u"blooio"_s);
    QCOMPARE(QJsonDocument::fromJson(m_sent[0].second).object(),
             (QJsonObject{{u"to"_s, phone}, {u"text"_s, u"See you at 5 😀"_s}}));
    QCOMPARE(m_panel->visualizer()->node(1, 0)->state(), FlowNodeItem::State::Done);
    QCOMPARE(m_panel->stepLog()->topLevelItemCount(), 2);
    QCOMPARE(m_panel->stepLog()->topLevelItem(1)->text(FlowStepLogView::ReceiptColumn), receipt);

    // The whole output, JSON indented, in a viewer of its own; the receipt id links out.
    auto *viewer = qobject_cast<StepOutputDialog *>(m_panel->stepLog()->openOutput(1));
    QVERIFY(viewer);
    QCOMPARE(viewer->shownText(), u"HTTP 200:\n{\n    \"id\": \"msg_1\",\n    \"ok\": true\n}"_s);
    viewer->close();
    QSignalSpy linked(m_panel.get(), &FlowDebuggerPanel::receiptRequested);
    emit m_panel->stepLog()->itemActivated(m_panel->stepLog()->topLevelItem(1),
                                           FlowStepLogView::ReceiptColumn);
    QCOMPARE(linked.size(), 1);
    QCOMPARE(linked[0][0].toString(), receipt);

    // The run is one flow invocation: its receipt is linked under the status, the steps'
    // receipts under it.
    QTRY_VERIFY(m_panel->receiptNote().startsWith(u"Flow receipt: "_s));
    ReceiptLog::Query flows;
    flows.key = u"BLOOIO_FINISH"_s;
    const QList<Receipt> flowReceipts = m_ledger->receipts().list(flows).value();
    QCOMPARE(flowReceipts.size(), 1);
    const QString flowId = flowReceipts[0].invocationId;
    QVERIFY(m_panel->receiptNote().contains(flowId));
    QCOMPARE(m_ledger->receipts().find(receipt).value().parent, flowId);
    auto *note = m_panel->findChild<QLabel *>(u"flowReceiptNote"_s);
    QVERIFY(note && note->isVisible());
    emit note->linkActivated(flowId);
    QCOMPARE(linked.size(), 2);
    QCOMPARE(linked[1][0].toString(), flowId);
}

void TestFlowDebuggerPanel::breakpointRerunAndTimeline()
{
    m_panel->showRow(u"BOTH_NAPS"_s);
    clickNode(1, 0);
    press(Qt::Key_F9);
    QVERIFY(m_panel->visualizer()->node(1, 0)->hasBreakpoint());
    press(Qt::Key_F5);
    QTRY_COMPARE(m_panel->visualizer()->node(0, 1)->state(), FlowNodeItem::State::Running);
    shoot(u"flow-debugger-fanout-running"_s);
    QTRY_COMPARE(m_panel->status(), u"Paused before step 2: SHOUT"_s);
    const QString naps = u"{\"NAP\":\"slept 300 ms\",\"NAP\":\"slept 400 ms\"}"_s;
    QCOMPARE(variable(u"$PREV"_s), naps);
    QCOMPARE(variable(u"$NAPS"_s), naps);
    QCOMPARE(variable(u"body"_s), naps);

    // Both branches ran at once: their bars overlap on the timeline.
    const QList<FlowTimelineView::Bar> bars = m_panel->timeline()->bars();
    QCOMPARE(bars.size(), 2);
    QVERIFY(bars[0].startUs < bars[1].endUs && bars[1].startUs < bars[0].endUs);
    QCOMPARE(bars[0].label, u"1a NAP"_s);
    QCOMPARE(bars[1].label, u"1b NAP"_s);

    press(Qt::Key_F5);
    QTRY_VERIFY(m_panel->status().startsWith(u"Finished in"_s));
    QCOMPARE(variable(u"flow output"_s), naps.toUpper());
    shoot(u"flow-debugger-fanout-finished"_s);

    // Rerun only the last step, picked in the step log (rows 1a, 1b, 2): the naps keep
    // their outputs and do not run again.
    QCOMPARE(m_panel->stepLog()->topLevelItemCount(), 3);
    m_panel->stepLog()->setCurrentItem(m_panel->stepLog()->topLevelItem(2));
    QCOMPARE(m_panel->rerunAction()->text(), u"Rerun from Step 2 (SHOUT)"_s);
    m_panel->rerunAction()->trigger();
    QTRY_COMPARE(m_panel->status(), u"Paused before step 2: SHOUT"_s);
    QCOMPARE(variable(u"$PREV"_s), naps);
    QCOMPARE(m_panel->visualizer()->node(0, 0)->note(), u"pinned"_s);
    press(Qt::Key_F10);
    QTRY_VERIFY(m_panel->status().startsWith(u"Finished in"_s));
    ReceiptLog::Query query;
    query.key = u"NAP"_s;
    QCOMPARE(m_ledger->receipts().list(query).value().size(), 2);
}

void TestFlowDebuggerPanel::abortStopsTheRun()
{
    m_panel->showRow(u"BOTH_NAPS"_s);
    press(Qt::Key_F5);
    QTRY_VERIFY(m_panel->abortAction()->isEnabled());
    m_panel->abortAction()->trigger();
    QTRY_VERIFY(m_panel->status().endsWith(u": ERR: flow aborted"_s));
    QVERIFY2(m_panel->status().startsWith(u"Aborted after "_s), qPrintable(m_panel->status()));
    QCOMPARE(m_panel->visualizer()->node(0, 0)->state(), FlowNodeItem::State::Failed);
    QVERIFY(!m_panel->abortAction()->isEnabled());
    // The aborted run is receipted too, as a run without a material result.
    QTRY_VERIFY(m_panel->receiptNote().startsWith(u"Flow receipt: "_s));
    ReceiptLog::Query flows;
    flows.key = u"BOTH_NAPS"_s;
    const QList<Receipt> flowReceipts = m_ledger->receipts().list(flows).value();
    QCOMPARE(flowReceipts.size(), 1);
    QCOMPARE(flowReceipts[0].status, Receipt::ranWithoutMaterial);
    QCOMPARE(flowReceipts[0].outputFingerprint, Receipt::sha256Hex(u"ERR: flow aborted"_s));

    // A failed run names the step it failed at.
    m_panel->showRow(u"FAILS"_s);
    press(Qt::Key_F5);
    QTRY_VERIFY2(m_panel->status().startsWith(u"Failed at step 2 (NO_SUCH_ROW) after "_s),
                 qPrintable(m_panel->status()));
}

void TestFlowDebuggerPanel::aParseErrorRunsNothing()
{
    // A row that is no flow has nothing to step through.
    m_panel->showRow(u"SHOUT"_s);
    QVERIFY(!m_panel->stepAction()->isEnabled());
    QVERIFY(!m_panel->continueAction()->isEnabled());

    m_panel->showRow(u"BROKEN"_s);
    press(Qt::Key_F5);
    QCOMPARE(m_panel->status(), u"Cannot run: line 1, column 7: nothing after '>': expected a step"_s);
    QVERIFY(!m_panel->session()->run());
}

// BLOOIO_FINISH posts to an upstream: the run asks once, before its first step, naming
// that step; a refusal runs nothing, and the steps of an agreed run are not asked again.
void TestFlowDebuggerPanel::aWorldChangingRunAsksOnceNamingItsSteps()
{
    FakePrompter prompter;
    WorldEffectGate gate(prompter);
    m_panel->setWorldEffectGate(&gate);
    m_panel->showRow(u"BLOOIO_FINISH"_s);
    m_panel->setBody(agentText + u'|' + phone);

    press(Qt::Key_F10);
    QCOMPARE(m_panel->status(), u"Not run: BLOOIO_FINISH was not confirmed."_s);
    QVERIFY(!m_panel->session()->run());
    QCOMPARE(prompter.worldEffectsQuestions.size(), 1);
    QCOMPARE(prompter.worldEffectsQuestions[0],
             (QStringList{u"BLOOIO_FINISH"_s,
                          u"SEND_BY_CHANNEL: POST http://127.0.0.1:%1/send/$1"_s.arg(m_port)}));

    prompter.worldEffectsAnswer = true;
    press(Qt::Key_F10);
    QTRY_COMPARE(m_panel->status(), u"Paused before step 1: LAST_REPLY_OF"_s);
    press(Qt::Key_F10);
    QTRY_COMPARE(m_panel->status(), u"Paused before step 2: SEND_BY_CHANNEL"_s);
    press(Qt::Key_F5);
    QTRY_VERIFY(m_panel->status().startsWith(u"Finished in"_s));
    QCOMPARE(prompter.worldEffectsQuestions.size(), 2);
    QCOMPARE(m_sent.size(), 1);

    // A flow of pure builtins changes nothing and is not asked about.
    m_panel->showRow(u"QUICK"_s);
    press(Qt::Key_F5);
    QTRY_VERIFY(m_panel->status().startsWith(u"Finished in"_s));
    QCOMPARE(prompter.worldEffectsQuestions.size(), 2);
}

// The debugger never shows another flow's run: a new flow, or the directory opened again,
// clears the status, the step log, the timeline, the variables and the breakpoints.
void TestFlowDebuggerPanel::anotherFlowOrDirectoryStartsOver()
{
    auto expectCleared = [this] {
        QCOMPARE(m_panel->status(), QString());
        QVERIFY(!m_panel->session()->run());
        QCOMPARE(m_panel->stepLog()->topLevelItemCount(), 0);
        QVERIFY(m_panel->timeline()->bars().isEmpty());
        QCOMPARE(m_panel->variables()->topLevelItemCount(), 0);
        QVERIFY(m_panel->session()->breakpoints().isEmpty());
    };
    m_panel->showRow(u"QUICK"_s);
    m_panel->setBody(u"hi"_s);
    press(Qt::Key_F9);
    press(Qt::Key_F5);
    QTRY_COMPARE(m_panel->status(), u"Paused before step 1: SHOUT"_s);
    press(Qt::Key_F5);
    QTRY_VERIFY(m_panel->status().endsWith(u": HI"_s));
    QVERIFY(!m_panel->session()->breakpoints().isEmpty());
    QCOMPARE(m_panel->stepLog()->topLevelItemCount(), 2);

    m_panel->showRow(u"BOTH_NAPS"_s);
    expectCleared();

    // The body went with the other flow: this run has none.
    m_panel->showRow(u"QUICK"_s);
    press(Qt::Key_F5);
    QTRY_VERIFY(m_panel->status().startsWith(u"Finished in"_s));
    QVERIFY(m_panel->status().endsWith(u": "_s));
    m_panel->setDocument(m_document.get());
    m_panel->showRow(u"QUICK"_s);
    expectCleared();

    // Another flow of the same directory mid-run: the run ends as an abort, receipted.
    press(Qt::Key_F10);
    QTRY_COMPARE(m_panel->status(), u"Paused before step 1: SHOUT"_s);
    press(Qt::Key_F10);
    QTRY_COMPARE(m_panel->status(), u"Paused before step 2: SHOUT"_s);
    ReceiptLog::Query quick;
    quick.key = u"QUICK"_s;
    const qsizetype before = m_ledger->receipts().list(quick).value().size();
    m_panel->showRow(u"BOTH_NAPS"_s);
    expectCleared();
    QTRY_COMPARE(m_ledger->receipts().list(quick).value().size(), before + 1);
    const Receipt aborted = m_ledger->receipts().list(quick).value().first();
    QCOMPARE(aborted.outputFingerprint, Receipt::sha256Hex(u"ERR: flow aborted"_s));
}

// F5/F10 from outside the debugger do nothing while no run goes (they must not start a
// real run from the editor), and step the run window-wide once one is going. The time
// spent paused is shown apart from the run's active time.
void TestFlowDebuggerPanel::keysWorkWindowWideWhileARunGoes()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *elsewhere = new QLineEdit(&window);
    layout->addWidget(elsewhere);
    FlowDebuggerPanel *panel = m_panel.release();
    layout->addWidget(panel);
    m_panel.reset(panel);
    // cleanup() deletes the panel; the window must not as well, however the test ends.
    const auto release = qScopeGuard([panel] { panel->setParent(nullptr); });
    window.resize(1100, 760);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));

    panel->showRow(u"QUICK"_s);
    panel->setBody(u"hi"_s);
    elsewhere->setFocus();
    QTest::keyClick(elsewhere, Qt::Key_F10);
    QTest::keyClick(elsewhere, Qt::Key_F5);
    QVERIFY(!panel->session()->run());

    press(Qt::Key_F10);
    QTRY_COMPARE(panel->status(), u"Paused before step 1: SHOUT"_s);
    elsewhere->setFocus();
    QTest::keyClick(elsewhere, Qt::Key_F10);
    QTRY_COMPARE(panel->status(), u"Paused before step 2: SHOUT"_s);
    // Paused well past the active time so far, which the pause does not add to.
    const FlowExecutor *run = panel->session()->run();
    QVERIFY(QTest::qWaitFor([run] { return run->pausedUs() >= run->elapsedUs() + 300'000; }, 10000));
    QTest::keyClick(elsewhere, Qt::Key_F5);
    QTRY_VERIFY(panel->status().endsWith(u": HI"_s));
    static const QRegularExpression finished(uR"(^Finished in \d+ ms \(paused \d+\.\d s\): HI$)"_s);
    QVERIFY2(finished.match(panel->status()).hasMatch(), qPrintable(panel->status()));
    QVERIFY(panel->session()->run()->elapsedUs() < panel->session()->run()->pausedUs());
}

QTEST_MAIN(TestFlowDebuggerPanel)
#include "tst_flowdebuggerpanel.moc"
