#include "dispatch/call/invocationids.h"
#include "dispatch/flows/flowparser.h"
#include "dispatch/flows/run/flowexecutor.h"
#include "tests/dispatch/flowtestdirectory.h"

#include <QElapsedTimer>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace {

struct FlowRun
{
    QString output;
    QList<FlowStepState> steps;
    QStringList events; // "prepared 0", "finished 0", …
    qint64 elapsedMs = 0;
};

} // namespace

// SPEC §4's run rules, one data row each, over a real LocalDispatcher with the fn and flow
// runners and a real ledger, so every step is a receipted nested invocation.
class TestFlowExecutor : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void rules_data();
    void rules();
    void fanOutBranchesRunConcurrently();
    void nothingAfterAnErrorRuns();
    void aFailingBranchStopsTheFlowAfterEveryBranchFinished();
    void stepLimit_data();
    void stepLimit();
    void depthLimit();
    void timeoutIsANamedError();
    void cancelFlagStopsTheFlow();
    void stepsAreNestedInvocationsOfTheFlow();
    void nestedFlowsChainTheirParents();
    void statesBeforeAndAfterEachStep();

private:
    FlowRun run(const QString &flow, const QString &body, const FlowLimits &limits = {},
                std::shared_ptr<std::atomic_bool> cancelled = nullptr);

    std::unique_ptr<FlowTestDirectory> m_directory;
};

void TestFlowExecutor::init()
{
    m_directory = std::make_unique<FlowTestDirectory>();
    QVERIFY(m_directory->open());
    QVERIFY(m_directory->addFlow(u"INNER"_s, u"SHOUT > ECHO: ($PREV)"_s));
    QVERIFY(m_directory->addFlow(u"FAILING"_s, u"BOOM: inner"_s));
    QVERIFY(m_directory->addFlow(u"RECURSE"_s, u"RECURSE"_s));
}

FlowRun TestFlowExecutor::run(const QString &flow, const QString &body, const FlowLimits &limits,
                              std::shared_ptr<std::atomic_bool> cancelled)
{
    const FlowParseResult parsed = FlowParser::parse(flow);
    if (!parsed.ok())
        return {u"parse error: "_s + parsed.error->describe(), {}, {}, 0};
    InvocationRequest stepRequest;
    stepRequest.trace = InvocationIds::newTrace();
    stepRequest.depth = 1;
    FlowExecutor executor(*m_directory->dispatcher, parsed.plan, body, stepRequest);
    executor.setLimits(limits);
    executor.setCancelFlag(std::move(cancelled));
    FlowRun result;
    connect(&executor, &FlowExecutor::stepPrepared, this,
            [&](int i) { result.events.append(u"prepared %1"_s.arg(i)); });
    connect(&executor, &FlowExecutor::stepFinished, this,
            [&](int i) { result.events.append(u"finished %1"_s.arg(i)); });
    QSignalSpy finished(&executor, &FlowExecutor::finished);
    QElapsedTimer timer;
    timer.start();
    executor.start();
    if (!finished.wait(20000))
        return {u"timed out"_s, {}, {}, 0};
    result.elapsedMs = timer.elapsed();
    result.output = finished.first().first().toString();
    result.steps = executor.steps();
    return result;
}

void TestFlowExecutor::rules_data()
{
    QTest::addColumn<QString>("flow");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("output");

    QTest::addRow("$PREV starts as the flow's body") << u"ECHO"_s << u"hi|there"_s << u"hi|there"_s;
    QTest::addRow("$PREV is the last call's output") << u"SHOUT > ECHO: ($PREV)"_s << u"hi"_s << u"(HI)"_s;
    QTest::addRow("the flow's args in every step")
        << u"ECHO: $2-$1 > ECHO: $PREV/$3"_s << u"a|b"_s << u"b-a/"_s;
    QTest::addRow("$N+") << u"ECHO: $2+"_s << u"a|b|c"_s << u"b|c"_s;
    QTest::addRow("binding") << u"SHOUT: x => X > ECHO: y > ECHO: $X/$PREV"_s << QString() << u"X/y"_s;
    QTest::addRow("unbound name stays literal") << u"ECHO: $NOPE"_s << QString() << u"$NOPE"_s;
    QTest::addRow("a later binding replaces")
        << u"ECHO: 1 => N > ECHO: 2 => N > ECHO: $N"_s << QString() << u"2"_s;
    QTest::addRow("fan-out object in branch order")
        << u"{ SHOUT: b | ECHO: a }"_s << QString() << u"{\"SHOUT\":\"B\",\"ECHO\":\"a\"}"_s;
    QTest::addRow("fan-out values are JSON strings")
        << u"{ ECHO: a\"b\"c }"_s << QString() << u"{\"ECHO\":\"a\\\"b\\\"c\"}"_s;
    QTest::addRow("fan-out and branch bindings") << u"{SHOUT: x => S | ECHO: y} => BOTH > ECHO: $S $BOTH"_s
                                                 << QString() << u"X {\"SHOUT\":\"X\",\"ECHO\":\"y\"}"_s;
    QTest::addRow("branches share $PREV") << u"SHOUT: p > { ECHO: 1$PREV | ECHO: 2$PREV }"_s << QString()
                                          << u"{\"ECHO\":\"1P\",\"ECHO\":\"2P\"}"_s;
    QTest::addRow("ERR stops the flow") << u"BOOM: bad > SHOUT: never"_s << QString() << u"ERR: bad"_s;
    QTest::addRow("first failing branch in branch order")
        << u"{ SHOUT: a | BOOM: one | BOOM: two }"_s << QString() << u"ERR: one"_s;
    QTest::addRow("unknown key") << u"SHOUT > NOPE_ROW: x"_s << QString() << u"ERR: unknown key NOPE_ROW"_s;
    QTest::addRow("nested flow") << u"INNER: abc > ECHO: [$PREV]"_s << QString() << u"[(ABC)]"_s;
    QTest::addRow("failing nested flow") << u"FAILING > SHOUT: x"_s << QString() << u"ERR: inner"_s;
    QTest::addRow("\\> in a body") << u"ECHO: 3 \\> 2"_s << QString() << u"3 > 2"_s;
    QTest::addRow("the last step's output") << u"ECHO: a > ECHO: b"_s << QString() << u"b"_s;
    QTest::addRow("unicode") << u"ECHO: héllo 😀 > SHOUT"_s << QString() << u"HÉLLO 😀"_s;
}

void TestFlowExecutor::rules()
{
    QFETCH(QString, flow);
    QFETCH(QString, body);
    QFETCH(QString, output);
    QCOMPARE(run(flow, body).output, output);
}

void TestFlowExecutor::fanOutBranchesRunConcurrently()
{
    const FlowRun result = run(u"{ NAP: 300 | NAP: 300 }"_s, QString());
    QCOMPARE(result.output, u"{\"NAP\":\"slept 300 ms\",\"NAP\":\"slept 300 ms\"}"_s);
    QVERIFY2(result.elapsedMs < 500, qPrintable(QString::number(result.elapsedMs)));
    const QList<FlowStepState::Call> &calls = result.steps[0].calls;
    QVERIFY(calls[0].startedAtUs < calls[1].finishedAtUs && calls[1].startedAtUs < calls[0].finishedAtUs);
}

void TestFlowExecutor::nothingAfterAnErrorRuns()
{
    const FlowRun result = run(u"BOOM: x > SHOUT: y > ECHO: z"_s, QString());
    QCOMPARE(result.output, u"ERR: x"_s);
    QCOMPARE(m_directory->receipts(u"BOOM"_s).size(), 1);
    QVERIFY(m_directory->receipts(u"SHOUT"_s).isEmpty());
    QVERIFY(m_directory->receipts(u"ECHO"_s).isEmpty());
    QCOMPARE(result.events, (QStringList{u"prepared 0"_s, u"finished 0"_s}));
    QCOMPARE(result.steps[1].phase, FlowStepState::Phase::Pending);
}

void TestFlowExecutor::aFailingBranchStopsTheFlowAfterEveryBranchFinished()
{
    const FlowRun result = run(u"{ BOOM: x | NAP: 200 } > SHOUT: y"_s, QString());
    QCOMPARE(result.output, u"ERR: x"_s);
    QVERIFY(result.elapsedMs >= 200);
    QCOMPARE(result.steps[0].calls[1].output, u"slept 200 ms"_s);
    QCOMPARE(m_directory->receipts(u"NAP"_s).size(), 1);
    QVERIFY(m_directory->receipts(u"SHOUT"_s).isEmpty());
}

void TestFlowExecutor::stepLimit_data()
{
    QTest::addColumn<QString>("flow");
    QTest::addColumn<QString>("output");
    QStringList sixtyFour(64, u"ECHO"_s);
    QTest::addRow("64 calls run") << sixtyFour.join(u" > "_s) << u"x"_s;
    QTest::addRow("65 calls refused")
        << (sixtyFour + QStringList{u"ECHO"_s}).join(u" > "_s)
        << u"ERR: flow_step_limit: 65 calls, more than the 64 one flow may make"_s;
    QTest::addRow("branches count")
        << QStringList(33, u"{ ECHO | ECHO: x }"_s).join(u" > "_s)
        << u"ERR: flow_step_limit: 66 calls, more than the 64 one flow may make"_s;
}

void TestFlowExecutor::stepLimit()
{
    QFETCH(QString, flow);
    QFETCH(QString, output);
    QCOMPARE(run(flow, u"x"_s).output, output);
    if (output.startsWith(u"ERR:"_s))
        QVERIFY(m_directory->receipts(u"ECHO"_s).isEmpty());
}

void TestFlowExecutor::depthLimit()
{
    const InvocationOutcome outcome = m_directory->invoke(u"RECURSE"_s, QString());
    QCOMPARE(outcome.result.output, u"ERR: flow_depth_limit: flows nest deeper than 8"_s);
    // The outermost call and eight nested ones, the last refusing to nest further.
    QCOMPARE(m_directory->receipts(u"RECURSE"_s).size(), 9);
}

void TestFlowExecutor::timeoutIsANamedError()
{
    FlowLimits limits;
    limits.timeoutMs = 200;
    const FlowRun result = run(u"NAP: 3000 > SHOUT: y"_s, QString(), limits);
    QCOMPARE(result.output, u"ERR: flow_timeout: the flow ran longer than 200 ms"_s);
    QVERIFY2(result.elapsedMs < 1500, qPrintable(QString::number(result.elapsedMs)));
    QCOMPARE(result.steps[0].phase, FlowStepState::Phase::Failed);
    QVERIFY(m_directory->receipts(u"SHOUT"_s).isEmpty());
}

void TestFlowExecutor::cancelFlagStopsTheFlow()
{
    auto cancelled = std::make_shared<std::atomic_bool>(false);
    QTimer::singleShot(100, this, [cancelled] { cancelled->store(true); });
    const FlowRun result = run(u"NAP: 3000 > SHOUT: y"_s, QString(), {}, cancelled);
    QCOMPARE(result.output, u"ERR: cancelled"_s);
    QVERIFY2(result.elapsedMs < 1500, qPrintable(QString::number(result.elapsedMs)));
    QVERIFY(m_directory->receipts(u"SHOUT"_s).isEmpty());
}

void TestFlowExecutor::stepsAreNestedInvocationsOfTheFlow()
{
    QVERIFY(m_directory->addFlow(u"PAIR"_s, u"SHOUT: a > { ECHO: b | SHOUT: c }"_s));
    const InvocationOutcome outcome = m_directory->invoke(u"PAIR"_s, QString());
    QCOMPARE(outcome.result.output, u"{\"ECHO\":\"b\",\"SHOUT\":\"C\"}"_s);
    QVERIFY(outcome.receipt);
    QVERIFY(outcome.receipt->parent.isNull());
    const QList<Receipt> steps = m_directory->receipts({}, outcome.invocationId);
    QCOMPARE(steps.size(), 3);
    QStringList keys;
    for (const Receipt &step : steps) {
        keys.append(step.key);
        QCOMPARE(step.parent, outcome.invocationId);
        QCOMPARE(step.trace, outcome.trace);
        QCOMPARE(step.actor, u"owner:local"_s);
        QVERIFY(step.material);
    }
    keys.sort();
    QCOMPARE(keys, (QStringList{u"ECHO"_s, u"SHOUT"_s, u"SHOUT"_s}));
}

void TestFlowExecutor::nestedFlowsChainTheirParents()
{
    QVERIFY(m_directory->addFlow(u"OUTER"_s, u"INNER: abc"_s));
    const InvocationOutcome outcome = m_directory->invoke(u"OUTER"_s, QString());
    QCOMPARE(outcome.result.output, u"(ABC)"_s);
    const QList<Receipt> inner = m_directory->receipts(u"INNER"_s, outcome.invocationId);
    QCOMPARE(inner.size(), 1);
    const QList<Receipt> innerSteps = m_directory->receipts({}, inner[0].invocationId);
    QCOMPARE(innerSteps.size(), 2);
    for (const Receipt &step : innerSteps)
        QCOMPARE(step.trace, outcome.trace);
}

void TestFlowExecutor::statesBeforeAndAfterEachStep()
{
    const FlowRun result = run(u"SHOUT: $1 => UP > ECHO: $PREV-$2"_s, u"a|b"_s);
    QCOMPARE(result.output, u"A-b"_s);
    QCOMPARE(result.events,
             (QStringList{u"prepared 0"_s, u"finished 0"_s, u"prepared 1"_s, u"finished 1"_s}));
    const FlowStepState &second = result.steps[1];
    QCOMPARE(second.prev, u"A"_s);
    QCOMPARE(second.args, (QStringList{u"a"_s, u"b"_s}));
    QCOMPARE(second.bindings.value(u"UP"_s), u"A"_s);
    QCOMPARE(second.calls[0].resolvedBody, u"A-b"_s);
    QCOMPARE(second.calls[0].output, u"A-b"_s);
    QCOMPARE(second.phase, FlowStepState::Phase::Done);
    for (const FlowStepState &step : result.steps) {
        const QString id = step.calls[0].invocationId;
        QVERIFY(m_directory->ledger->receipts().find(id).ok());
        QVERIFY(step.calls[0].durationMs >= 0);
        QVERIFY(step.calls[0].finishedAtUs >= step.calls[0].startedAtUs);
    }
}

QTEST_GUILESS_MAIN(TestFlowExecutor)
#include "tst_flowexecutor.moc"
