#include "dispatch/flows/flowparser.h"
#include "dispatch/flows/run/flowexecutor.h"
#include "tests/dispatch/flowtestdirectory.h"

#include <QEventLoop>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <memory>
#include <vector>

using namespace Qt::StringLiterals;

namespace {

// The real dispatcher, reached through one that waits in a nested event loop after each
// call it starts, as the dispatcher did while it looked up a row's secret in the keychain
// (and as any slot showing a dialog would). Earlier branches then finish while later ones
// are still being started.
class NestedLoopDispatcher final : public Dispatcher
{
public:
    NestedLoopDispatcher(Dispatcher &real, int waitMs) : m_real(real), m_waitMs(waitMs) {}

    InvocationHandle *invoke(const InvocationRequest &request) override
    {
        InvocationHandle *handle = m_real.invoke(request);
        QEventLoop loop;
        QTimer::singleShot(m_waitMs, &loop, &QEventLoop::quit);
        loop.exec();
        return handle;
    }

    InvocationHandle *recordFlowRun(const FlowRunRecord &run) override { return m_real.recordFlowRun(run); }

private:
    Dispatcher &m_real;
    int m_waitMs;
};

} // namespace

// Item 2 of issue 13: fan-out flows invoked many times at once over the real dispatcher,
// fn rows and ledger, with callers that cancel or drop their handles while branches
// finish. Meant to run under ASan and TSan (CAPDESK_SANITIZE), where a lifetime or order
// race between finishing branches and the next step's launch is reported, not hoped for.
class TestFlowStress : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void fanOutsFinishEveryTime_data();
    void fanOutsFinishEveryTime();
    void droppedAndCancelledCallersLeaveNoDanglingWork();
    void closingTheDirectoryMidFlowFinishesEveryCaller_data();
    void closingTheDirectoryMidFlowFinishesEveryCaller();
    void branchesFinishingWhileLaterOnesStartCompleteTheStepOnce_data();
    void branchesFinishingWhileLaterOnesStartCompleteTheStepOnce();
    void anAbortWhileBranchesStartStartsNoMore();

private:
    std::unique_ptr<FlowTestDirectory> m_directory;
};

void TestFlowStress::init()
{
    m_directory = std::make_unique<FlowTestDirectory>();
    QVERIFY(m_directory->open());
    QVERIFY(m_directory->addFlow(u"FAN"_s, u"{ SHOUT: a | ECHO: b | NAP: 1 | ECHO: c } > ECHO: $PREV"_s));
    QVERIFY(m_directory->addFlow(u"NESTED"_s, u"{ FAN | FAN: x | NAP: 2 } > { ECHO: 1 | SHOUT: 2 }"_s));
}

void TestFlowStress::fanOutsFinishEveryTime_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("output");
    QTest::addColumn<int>("concurrent");
    QTest::addRow("one fan-out")
        << u"FAN"_s << u"{\"SHOUT\":\"A\",\"ECHO\":\"b\",\"NAP\":\"slept 1 ms\",\"ECHO\":\"c\"}"_s << 40;
    QTest::addRow("nested fan-outs") << u"NESTED"_s << u"{\"ECHO\":\"1\",\"SHOUT\":\"2\"}"_s << 12;
}

void TestFlowStress::fanOutsFinishEveryTime()
{
    QFETCH(QString, key);
    QFETCH(QString, output);
    QFETCH(int, concurrent);
    for (int round = 0; round < 5; ++round) {
        std::vector<std::unique_ptr<InvocationHandle>> handles;
        int finished = 0;
        for (int i = 0; i < concurrent; ++i) {
            InvocationRequest request;
            request.key = key;
            handles.emplace_back(m_directory->dispatcher->invoke(request));
            connect(handles.back().get(), &InvocationHandle::finished, this, [&finished] { ++finished; });
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished, concurrent, 60000);
        for (const std::unique_ptr<InvocationHandle> &handle : handles)
            QCOMPARE(handle->outcome().result.output, output);
    }
}

void TestFlowStress::droppedAndCancelledCallersLeaveNoDanglingWork()
{
    // Every third caller drops its handle at once, every third cancels it after a few ms,
    // while the rest wait: branches then finish into executors that are stopping or gone.
    for (int round = 0; round < 5; ++round) {
        std::vector<std::unique_ptr<InvocationHandle>> waiting;
        std::vector<std::unique_ptr<InvocationHandle>> cancelled;
        for (int i = 0; i < 30; ++i) {
            InvocationRequest request;
            request.key = i % 2 ? u"FAN"_s : u"NESTED"_s;
            std::unique_ptr<InvocationHandle> handle(m_directory->dispatcher->invoke(request));
            if (i % 3 == 0)
                continue; // dropped
            if (i % 3 == 1) {
                QTimer::singleShot(i % 7, handle.get(), [h = handle.get()] { h->cancel(); });
                cancelled.push_back(std::move(handle));
            } else {
                waiting.push_back(std::move(handle));
            }
        }
        const auto allFinished = [](const std::vector<std::unique_ptr<InvocationHandle>> &handles) {
            for (const std::unique_ptr<InvocationHandle> &handle : handles) {
                if (!handle->isFinished())
                    return false;
            }
            return true;
        };
        QTRY_VERIFY_WITH_TIMEOUT(allFinished(waiting) && allFinished(cancelled), 60000);
        for (const std::unique_ptr<InvocationHandle> &handle : waiting)
            QVERIFY(!handle->outcome().result.output.isEmpty());
    }
    // The dropped calls' work ends too: wait for the last receipt, then close the directory.
    QTRY_VERIFY_WITH_TIMEOUT(m_directory->receipts(u"FAN"_s).size() >= 5 * 5, 60000);
    m_directory.reset();
}

void TestFlowStress::closingTheDirectoryMidFlowFinishesEveryCaller_data()
{
    QTest::addColumn<int>("afterMs");
    for (int ms : {0, 1, 2, 3, 5, 8, 13})
        QTest::addRow("after %d ms", ms) << ms;
}

// The GUI closing a directory (or serve shutting down) while fan-outs run: the dispatcher
// finishes its open calls, and those finishing branches must not start new steps on it.
void TestFlowStress::closingTheDirectoryMidFlowFinishesEveryCaller()
{
    QFETCH(int, afterMs);
    std::vector<std::unique_ptr<InvocationHandle>> handles;
    for (int i = 0; i < 20; ++i) {
        InvocationRequest request;
        request.key = i % 2 ? u"FAN"_s : u"NESTED"_s;
        handles.emplace_back(m_directory->dispatcher->invoke(request));
    }
    QTest::qWait(afterMs);
    m_directory.reset();
    for (const std::unique_ptr<InvocationHandle> &handle : handles)
        QVERIFY(handle->isFinished());
    // Whatever was still queued for the closed directory runs now, and must find it gone.
    QTest::qWait(50);
}

void TestFlowStress::branchesFinishingWhileLaterOnesStartCompleteTheStepOnce_data()
{
    QTest::addColumn<QString>("flow");
    QTest::addColumn<QString>("output");
    // The next step is narrower than the fan-out: a late branch written into it would be
    // out of its bounds.
    QTest::addRow("wide then narrow") << u"{ SHOUT: a | ECHO: b | NAP: 1 } > ECHO: [$PREV]"_s
                                      << u"[{\"SHOUT\":\"A\",\"ECHO\":\"b\",\"NAP\":\"slept 1 ms\"}]"_s;
    QTest::addRow("two fan-outs") << u"{ SHOUT: a | NAP: 1 | ECHO: b } > { ECHO: x | SHOUT: y }"_s
                                  << u"{\"ECHO\":\"x\",\"SHOUT\":\"Y\"}"_s;
}

void TestFlowStress::branchesFinishingWhileLaterOnesStartCompleteTheStepOnce()
{
    QFETCH(QString, flow);
    QFETCH(QString, output);
    const FlowParseResult parsed = FlowParser::parse(flow);
    QVERIFY(parsed.ok());
    NestedLoopDispatcher dispatcher(*m_directory->dispatcher, 30);
    FlowExecutor executor(dispatcher, parsed.plan, {}, {});
    QSignalSpy finished(&executor, &FlowExecutor::finished);
    QList<int> stepsFinished;
    connect(&executor, &FlowExecutor::stepFinished, this,
            [&stepsFinished](int index) { stepsFinished.append(index); });
    executor.start();
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.first().first().toString(), output);
    QCOMPARE(stepsFinished, (QList<int>{0, 1}));
    for (const FlowStepState &step : executor.steps()) {
        for (const FlowStepState::Call &call : step.calls)
            QCOMPARE(call.phase, FlowStepState::Phase::Done);
    }
}

void TestFlowStress::anAbortWhileBranchesStartStartsNoMore()
{
    const FlowParseResult parsed = FlowParser::parse(u"{ NAP: 200 | NAP: 200 | NAP: 200 } > ECHO: never"_s);
    QVERIFY(parsed.ok());
    NestedLoopDispatcher dispatcher(*m_directory->dispatcher, 30);
    FlowExecutor executor(dispatcher, parsed.plan, {}, {});
    connect(&executor, &FlowExecutor::stepStarted, this,
            [] { QFAIL("the aborted step was reported started"); });
    QSignalSpy finished(&executor, &FlowExecutor::finished);
    executor.start();
    // Aborted from inside the first call's nested loop, before the second branch starts.
    QTimer::singleShot(10, &executor, &FlowExecutor::abort);
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.first().first().toString(), u"ERR: flow aborted"_s);
    const QList<FlowStepState::Call> &calls = executor.steps().first().calls;
    QCOMPARE(calls[0].phase, FlowStepState::Phase::Failed);
    QCOMPARE(calls[1].phase, FlowStepState::Phase::Pending);
    QCOMPARE(calls[2].phase, FlowStepState::Phase::Pending);
}

QTEST_GUILESS_MAIN(TestFlowStress)
#include "tst_flowstress.moc"
