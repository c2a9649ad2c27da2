#include "dispatch/flows/flowparser.h"
#include "dispatch/flows/run/flowdebugsession.h"
#include "tests/dispatch/flowtestdirectory.h"

#include <QElapsedTimer>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;

// The debugger over the real executor and dispatcher: step, continue, breakpoints, abort
// and rerun with pinned outputs, checking what it exposes before and after each step.
class TestFlowDebugSession : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void stepPausesBeforeEveryStep();
    void continueRunsToTheEnd();
    void breakpointsPauseThere();
    void abortWhilePausedRunsNothing();
    void abortMidStepCancelsTheCall();
    void rerunFromPinsEarlierOutputs();
    void rerunNeedsTheEarlierStepsDone();
    void aRunIsOneFlowReceiptOverItsSteps();
    void anAbortedRunIsReceiptedAsAborted();
    void aRerunIsReceiptedWithItsOwnSteps();
    void timingsLeaveThePausesOut();

private:
    // Stores `flow` as a new DEBUGGED_N row (its receipts' contract) and hands it to the session.
    void useFlow(const QString &flow, const QString &body);
    // The flow receipt of the session's current run, once the session reports it.
    std::optional<Receipt> waitForFlowReceipt();

    // Waits for the session's run to pause or finish; "paused N" or "finished OUTPUT".
    QString waitForStop();

    std::unique_ptr<FlowTestDirectory> m_directory;
    std::unique_ptr<FlowDebugSession> m_session;
    int m_flows = 0;
    QString m_flowKey;
    QList<InvocationOutcome> m_recorded;
    QStringList m_notRecorded;
};

void TestFlowDebugSession::init()
{
    m_directory = std::make_unique<FlowTestDirectory>();
    QVERIFY(m_directory->open());
    m_session = std::make_unique<FlowDebugSession>(*m_directory->dispatcher);
    m_session->setRowLookup([store = m_directory->store](const QString &key) -> std::optional<Row> {
        const StoreResult<Row> row = store->row(key);
        return row.ok() ? std::optional<Row>(row.value()) : std::nullopt;
    });
    m_recorded.clear();
    m_notRecorded.clear();
    connect(m_session.get(), &FlowDebugSession::recorded, this,
            [this](const InvocationOutcome &outcome) { m_recorded.append(outcome); });
    connect(m_session.get(), &FlowDebugSession::notRecorded, this,
            [this](const QString &why) { m_notRecorded.append(why); });
    useFlow(u"ECHO: $1 => FIRST > SHOUT: $FIRST > ECHO: $PREV/$FIRST"_s, u"a|b"_s);
}

void TestFlowDebugSession::useFlow(const QString &flow, const QString &body)
{
    const FlowParseResult parsed = FlowParser::parse(flow);
    QVERIFY(parsed.ok());
    Row row = flowTestRow(u"DEBUGGED_%1"_s.arg(++m_flows), u"flow"_s, {}, {});
    row.content = u"# WHAT: a flow under the debugger\n"_s + flow;
    QVERIFY(!m_directory->store->importRows({row}).isError());
    m_flowKey = row.key;
    m_session->setFlow(m_flowKey, parsed.plan, body);
}

std::optional<Receipt> TestFlowDebugSession::waitForFlowReceipt()
{
    // The current run's own: the parent its steps' receipts name, so an earlier run's
    // record cannot pass for it, however early this one's arrived.
    QString parent;
    for (const FlowStepState &step : m_session->run()->steps()) {
        for (const FlowStepState::Call &call : step.calls) {
            if (!step.pinned && !call.receiptParent.isEmpty())
                parent = call.receiptParent;
        }
    }
    if (parent.isEmpty())
        return std::nullopt;
    std::optional<Receipt> found;
    const bool ended = QTest::qWaitFor(
        [&] {
            for (const InvocationOutcome &outcome : std::as_const(m_recorded)) {
                if (outcome.receipt && outcome.receipt->invocationId == parent)
                    found = outcome.receipt;
            }
            return found.has_value() || !m_notRecorded.isEmpty();
        },
        10000);
    if (!ended || !m_notRecorded.isEmpty())
        qWarning() << "no flow receipt for" << parent << m_notRecorded;
    return found;
}

QString TestFlowDebugSession::waitForStop()
{
    FlowExecutor *run = m_session->run();
    if (!run)
        return u"no run"_s;
    QString stop;
    const QMetaObject::Connection paused =
        connect(run, &FlowExecutor::paused, this, [&stop](int i) { stop = u"paused %1"_s.arg(i); });
    const QMetaObject::Connection finished = connect(
        run, &FlowExecutor::finished, this, [&stop](const QString &out) { stop = u"finished "_s + out; });
    const bool stopped = QTest::qWaitFor(
        [&] { return !stop.isEmpty() || run->state() == FlowExecutor::State::Finished; }, 10000);
    disconnect(paused);
    disconnect(finished);
    if (!stopped)
        return u"still running"_s;
    return stop.isEmpty() ? u"finished "_s + run->output() : stop;
}

void TestFlowDebugSession::stepPausesBeforeEveryStep()
{
    m_session->step();
    QCOMPARE(waitForStop(), u"paused 0"_s);
    const FlowExecutor *run = m_session->run();
    QCOMPARE(run->state(), FlowExecutor::State::Paused);
    QCOMPARE(run->steps()[0].prev, u"a|b"_s);
    QCOMPARE(run->steps()[0].args, (QStringList{u"a"_s, u"b"_s}));
    QCOMPARE(run->steps()[0].calls[0].resolvedBody, u"a"_s);
    QCOMPARE(run->steps()[0].calls[0].row->target, u"echo"_s);
    QVERIFY(m_directory->receipts({}).isEmpty());

    m_session->step();
    QCOMPARE(waitForStop(), u"paused 1"_s);
    QCOMPARE(run->steps()[0].output, u"a"_s);
    QVERIFY(m_directory->ledger->receipts().find(run->steps()[0].calls[0].invocationId).ok());
    QCOMPARE(run->steps()[1].prev, u"a"_s);
    QCOMPARE(run->steps()[1].bindings.value(u"FIRST"_s), u"a"_s);
    QCOMPARE(run->steps()[1].calls[0].resolvedBody, u"a"_s);
    QCOMPARE(run->steps()[1].calls[0].row->target, u"upper"_s);

    m_session->step();
    QCOMPARE(waitForStop(), u"paused 2"_s);
    QCOMPARE(run->steps()[2].calls[0].resolvedBody, u"A/a"_s);
    m_session->step();
    QCOMPARE(waitForStop(), u"finished A/a"_s);
    QCOMPARE(m_directory->receipts({}).size(), 3);
}

void TestFlowDebugSession::continueRunsToTheEnd()
{
    m_session->resume();
    QCOMPARE(waitForStop(), u"finished A/a"_s);
}

void TestFlowDebugSession::breakpointsPauseThere()
{
    m_session->toggleBreakpoint(2);
    m_session->resume();
    QCOMPARE(waitForStop(), u"paused 2"_s);
    QCOMPARE(m_session->run()->steps()[1].phase, FlowStepState::Phase::Done);
    QCOMPARE(m_session->run()->steps()[2].phase, FlowStepState::Phase::Pending);
    m_session->resume();
    QCOMPARE(waitForStop(), u"finished A/a"_s);

    m_session->toggleBreakpoint(2);
    QVERIFY(m_session->breakpoints().isEmpty());
    m_session->resume();
    QCOMPARE(waitForStop(), u"finished A/a"_s);
}

void TestFlowDebugSession::abortWhilePausedRunsNothing()
{
    m_session->step();
    QCOMPARE(waitForStop(), u"paused 0"_s);
    m_session->abort();
    QCOMPARE(m_session->run()->output(), u"ERR: flow aborted"_s);
    QVERIFY(!m_session->isActive());
    QVERIFY(m_directory->roundTrip());
    // Only the round trip's own call left a receipt.
    QCOMPARE(m_directory->receipts({}).size(), 1);
    QVERIFY(m_directory->receipts(u"ECHO"_s).isEmpty());
    QVERIFY(m_directory->receipts(u"SHOUT"_s).isEmpty());
    // No step ran, so there was no invocation of the flow to receipt.
    QVERIFY(m_directory->receipts(m_flowKey).isEmpty());
    QVERIFY(m_recorded.isEmpty());
    QCOMPARE(m_notRecorded, QStringList{u"No step ran, so there is no flow receipt."_s});
}

void TestFlowDebugSession::abortMidStepCancelsTheCall()
{
    useFlow(u"NAP: 3000 > SHOUT: x"_s, {});
    m_session->resume();
    QTimer::singleShot(100, m_session.get(), &FlowDebugSession::abort);
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(waitForStop(), u"finished ERR: flow aborted"_s);
    QVERIFY(timer.elapsed() < 1500);
    QCOMPARE(m_session->run()->steps()[0].phase, FlowStepState::Phase::Failed);
    // The cancelled NAP's receipt is the moment a step after it would start, and the round
    // trip comes after that.
    QTRY_VERIFY(!m_directory->receipts(u"NAP"_s).isEmpty());
    QVERIFY(m_directory->roundTrip());
    QVERIFY(m_directory->receipts(u"SHOUT"_s).isEmpty());
}

void TestFlowDebugSession::rerunFromPinsEarlierOutputs()
{
    m_session->resume();
    QCOMPARE(waitForStop(), u"finished A/a"_s);
    // Edit the last step and run only it again: the first two keep their outputs.
    useFlow(u"ECHO: $1 => FIRST > SHOUT: $FIRST > ECHO: $PREV+$FIRST"_s, u"a|b"_s);
    QVERIFY(m_session->rerunFrom(2));
    QCOMPARE(waitForStop(), u"paused 2"_s);
    const FlowExecutor *run = m_session->run();
    QVERIFY(run->steps()[0].pinned && run->steps()[1].pinned);
    QCOMPARE(run->steps()[2].prev, u"A"_s);
    QCOMPARE(run->steps()[2].calls[0].resolvedBody, u"A+a"_s);
    m_session->step();
    QCOMPARE(waitForStop(), u"finished A+a"_s);
    QCOMPARE(m_directory->receipts(u"SHOUT"_s).size(), 1);
    QCOMPARE(m_directory->receipts(u"ECHO"_s).size(), 3);
}

void TestFlowDebugSession::rerunNeedsTheEarlierStepsDone()
{
    QVERIFY(!m_session->rerunFrom(1));
    QVERIFY(!m_session->run());
    useFlow(u"BOOM: x > SHOUT"_s, {});
    m_session->resume();
    QCOMPARE(waitForStop(), u"finished ERR: x"_s);
    QVERIFY(!m_session->rerunFrom(1));
    QVERIFY(m_session->rerunFrom(0));
    QCOMPARE(waitForStop(), u"paused 0"_s);
}

// As a normal invoke of the flow: one flow receipt at the top, the steps its children, one
// trace, the flow's output and body fingerprinted.
void TestFlowDebugSession::aRunIsOneFlowReceiptOverItsSteps()
{
    m_session->resume();
    QCOMPARE(waitForStop(), u"finished A/a"_s);
    const std::optional<Receipt> flow = waitForFlowReceipt();
    QVERIFY(flow);
    QCOMPARE(flow->key, m_flowKey);
    QCOMPARE(flow->runner, u"flow"_s);
    QVERIFY(flow->parent.isNull());
    QVERIFY(flow->material);
    QCOMPARE(flow->status, Receipt::provenMaterial);
    QCOMPARE(flow->inputFingerprint, Receipt::sha256Hex(u"a|b"_s));
    QCOMPARE(flow->outputFingerprint, Receipt::sha256Hex(u"A/a"_s));
    QCOMPARE(flow->durationMs, m_session->run()->elapsedUs() / 1000);
    QVERIFY(m_directory->ledger->receipts().find(flow->invocationId).ok());
    QVERIFY(!flow->signature.isEmpty());

    const QList<Receipt> steps = m_directory->receipts({}, flow->invocationId);
    QCOMPARE(steps.size(), 3);
    for (const Receipt &step : steps)
        QCOMPARE(step.trace, flow->trace);
    QCOMPARE(m_directory->receipts({}).size(), 4);
    QVERIFY(m_notRecorded.isEmpty());
}

void TestFlowDebugSession::anAbortedRunIsReceiptedAsAborted()
{
    m_session->step();
    QCOMPARE(waitForStop(), u"paused 0"_s);
    m_session->step();
    QCOMPARE(waitForStop(), u"paused 1"_s);
    m_session->abort();
    const std::optional<Receipt> flow = waitForFlowReceipt();
    QVERIFY(flow);
    QVERIFY(!flow->material);
    QCOMPARE(flow->status, Receipt::ranWithoutMaterial);
    QCOMPARE(flow->outputFingerprint, Receipt::sha256Hex(u"ERR: flow aborted"_s));
    const QList<Receipt> steps = m_directory->receipts({}, flow->invocationId);
    QCOMPARE(steps.size(), 1);
    QCOMPARE(steps[0].key, u"ECHO"_s);
}

// A rerun is a run of its own: a second flow receipt, over only the steps it ran again.
void TestFlowDebugSession::aRerunIsReceiptedWithItsOwnSteps()
{
    m_session->resume();
    QCOMPARE(waitForStop(), u"finished A/a"_s);
    const std::optional<Receipt> first = waitForFlowReceipt();
    QVERIFY(first);
    QVERIFY(m_session->rerunFrom(2));
    QCOMPARE(waitForStop(), u"paused 2"_s);
    m_session->step();
    QCOMPARE(waitForStop(), u"finished A/a"_s);
    const std::optional<Receipt> rerun = waitForFlowReceipt();
    QVERIFY(rerun);
    QVERIFY(rerun->invocationId != first->invocationId);
    QVERIFY(rerun->trace != first->trace);
    const QList<Receipt> steps = m_directory->receipts({}, rerun->invocationId);
    QCOMPARE(steps.size(), 1);
    QCOMPARE(steps[0].key, u"ECHO"_s);
    QCOMPARE(m_directory->receipts({}, first->invocationId).size(), 3);
    QCOMPARE(m_directory->receipts(m_flowKey).size(), 2);
}

// A 3-step echo flow paused for at least 300 ms before a step: the pause is counted apart,
// and neither the run's active time nor any call's start on its clock includes it.
void TestFlowDebugSession::timingsLeaveThePausesOut()
{
    m_session->toggleBreakpoint(1);
    m_session->resume();
    QCOMPARE(waitForStop(), u"paused 1"_s);
    FlowExecutor *run = m_session->run();
    const qint64 activeAtPause = run->elapsedUs();
    QVERIFY(QTest::qWaitFor([run] { return run->pausedUs() >= 300'000; }, 5000));
    QCOMPARE(run->elapsedUs(), activeAtPause);
    m_session->resume();
    QCOMPARE(waitForStop(), u"finished A/a"_s);

    const qint64 paused = run->pausedUs();
    QVERIFY2(paused >= 300'000, qPrintable(QString::number(paused)));
    QVERIFY2(run->elapsedUs() < paused,
             qPrintable(u"active %1 us, paused %2 us"_s.arg(run->elapsedUs()).arg(paused)));
    const qint64 step2Start = run->steps()[1].calls[0].startedAtUs;
    QVERIFY2(step2Start >= activeAtPause && step2Start < activeAtPause + paused,
             qPrintable(u"step 2 started at %1 us, paused at %2 us"_s.arg(step2Start).arg(activeAtPause)));
    const qint64 ended = run->elapsedUs();
    QTest::qWait(0);
    QCOMPARE(run->elapsedUs(), ended);
    QCOMPARE(run->pausedUs(), paused);
    // The flow receipt records the active time, not the pause.
    const std::optional<Receipt> flow = waitForFlowReceipt();
    QVERIFY(flow);
    QCOMPARE(flow->durationMs, ended / 1000);
    QVERIFY(flow->durationMs < paused / 1000);
}

QTEST_GUILESS_MAIN(TestFlowDebugSession)
#include "tst_flowdebugsession.moc"
