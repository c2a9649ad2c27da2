#include "dispatch/core/faultnotice.h"
#include "dispatch/flows/run/flowrunner.h"
#include "tests/dispatch/flowtestdirectory.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace {

// Every call's resolved_body in order, branches flattened.
QJsonArray resolvedBodies(const QJsonObject &request)
{
    QJsonArray bodies;
    const QJsonArray steps = request.value(u"steps"_s).toArray();
    for (const QJsonValue &step : steps) {
        const QJsonObject object = step.toObject();
        if (object.value(u"kind"_s) != u"fanout"_s) {
            bodies.append(object.value(u"resolved_body"_s));
            continue;
        }
        const QJsonArray branches = object.value(u"branches"_s).toArray();
        for (const QJsonValue &branch : branches)
            bodies.append(branch.toObject().value(u"resolved_body"_s));
    }
    return bodies;
}

} // namespace

// The flow runner inside a LocalDispatcher: parse failures, shape mode, the caller's
// identity on every step, and a flow that outlives its handle or its directory.
class TestFlowRunner : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void parseErrorIsANamedFailure();
    void shape_data();
    void shape();
    void shapeNamesUnknownKeys();
    void theCallersIdentityReachesEveryStep();
    void aDraftFlowsStepsRunTheirStoredRows();
    void cancellingTheHandleStopsTheFlow();
    void closingTheDirectoryMidFlow();
    void aStepsServerFaultIsToldToATokenHolderOnlyByItsId_data();
    void aStepsServerFaultIsToldToATokenHolderOnlyByItsId();

private:
    std::unique_ptr<FlowTestDirectory> m_directory;
};

void TestFlowRunner::init()
{
    m_directory = std::make_unique<FlowTestDirectory>();
    QVERIFY(m_directory->open());
    QVERIFY(m_directory->addFlow(u"SLOW"_s, u"NAP: 5000 > SHOUT: x"_s));
}

void TestFlowRunner::parseErrorIsANamedFailure()
{
    QVERIFY(m_directory->addFlow(u"BROKEN"_s, u"# WHAT: broken\nSHOUT >"_s));
    const InvocationOutcome outcome = m_directory->invoke(u"BROKEN"_s, QString());
    QCOMPARE(outcome.result.output,
             u"ERR: flow_parse: line 2, column 7: nothing after '>': expected a step"_s);
    QVERIFY(outcome.receipt);
    QVERIFY(!outcome.receipt->material);
}

void TestFlowRunner::shape_data()
{
    QTest::addColumn<QString>("flow");
    QTest::addColumn<QJsonArray>("resolved");
    const QJsonValue unknown(QJsonValue::Null);
    QTest::addRow("args resolve, $PREV after step 1 does not")
        << u"SHOUT: $1 > ECHO: $PREV-$2 > ECHO: $X"_s << QJsonArray{u"a"_s, unknown, u"$X"_s};
    QTest::addRow("$PREV in step 1 is the body") << u"ECHO > ECHO"_s << QJsonArray{u"a|b"_s, unknown};
    QTest::addRow("a binding made earlier") << u"SHOUT: x => X > ECHO: $X"_s << QJsonArray{u"x"_s, unknown};
    QTest::addRow("branches do not see each other's bindings")
        << u"{ SHOUT: $1 => S | ECHO: $S } > ECHO: $S"_s << QJsonArray{u"a"_s, u"$S"_s, unknown};
    QTest::addRow("nothing runs") << u"NAP: 5000 > SHOUT: $2"_s << QJsonArray{u"5000"_s, u"b"_s};
}

void TestFlowRunner::shape()
{
    QFETCH(QString, flow);
    QFETCH(QJsonArray, resolved);
    QVERIFY(m_directory->addFlow(u"UNDER_TEST"_s, flow));
    QElapsedTimer timer;
    timer.start();
    const InvocationOutcome outcome = m_directory->invoke(u"UNDER_TEST"_s, u"a|b"_s, true);
    QVERIFY(timer.elapsed() < 2000);
    QVERIFY(outcome.shape);
    QVERIFY(outcome.invocationId.isEmpty());
    QCOMPARE(resolvedBodies(outcome.result.shapeRequest), resolved);
    QVERIFY(outcome.result.notes.isEmpty());
    QVERIFY(m_directory->receipts({}).isEmpty());
}

void TestFlowRunner::shapeNamesUnknownKeys()
{
    QVERIFY(m_directory->addFlow(u"UNDER_TEST"_s, u"SHOUT > NOPE_ROW > { ECHO | GONE: x }"_s));
    const InvocationOutcome outcome = m_directory->invoke(u"UNDER_TEST"_s, QString(), true);
    QCOMPARE(outcome.result.notes, (QStringList{u"unknown key NOPE_ROW"_s, u"unknown key GONE"_s}));
}

void TestFlowRunner::theCallersIdentityReachesEveryStep()
{
    QVERIFY(m_directory->addFlow(u"PAIR"_s, u"SHOUT: a > ECHO: b"_s));
    InvocationRequest request;
    request.key = u"PAIR"_s;
    request.actor = u"owner:terminal-key"_s;
    const InvocationOutcome outcome = FlowTestDirectory::await(m_directory->dispatcher->invoke(request));
    const QList<Receipt> steps = m_directory->receipts({}, outcome.invocationId);
    QCOMPARE(steps.size(), 2);
    for (const Receipt &step : steps)
        QCOMPARE(step.actor, u"owner:terminal-key"_s);
}

void TestFlowRunner::aDraftFlowsStepsRunTheirStoredRows()
{
    Row draft = m_directory->store->row(u"SLOW"_s).value();
    draft.content = u"SHOUT: z"_s;
    InvocationRequest request;
    request.key = u"SLOW"_s;
    request.draft = draft;
    const InvocationOutcome outcome = FlowTestDirectory::await(m_directory->dispatcher->invoke(request));
    QCOMPARE(outcome.result.output, u"Z"_s);
}

void TestFlowRunner::cancellingTheHandleStopsTheFlow()
{
    InvocationRequest request;
    request.key = u"SLOW"_s;
    InvocationHandle *handle = m_directory->dispatcher->invoke(request);
    QTimer::singleShot(100, handle, &InvocationHandle::cancel);
    QElapsedTimer timer;
    timer.start();
    const InvocationOutcome outcome = FlowTestDirectory::await(handle);
    QCOMPARE(outcome.result.output, u"ERR: cancelled"_s);
    QVERIFY(timer.elapsed() < 1500);
    QVERIFY(m_directory->receipts(u"SHOUT"_s).isEmpty());
}

void TestFlowRunner::closingTheDirectoryMidFlow()
{
    InvocationRequest request;
    request.key = u"SLOW"_s;
    InvocationHandle *handle = m_directory->dispatcher->invoke(request);
    QSignalSpy finished(handle, &InvocationHandle::finished);
    QTest::qWait(100);
    m_directory->dispatcher.reset();
    QCOMPARE(finished.size(), 1);
    QCOMPARE(handle->outcome().result.output, u"ERR: cancelled: the directory was closed"_s);
    delete handle;
    // The cut-off NAP still writes its receipt (its callback holds the ledger), and that is
    // when the flow would start SHOUT: whatever it queued then runs here, against no
    // dispatcher.
    QTRY_VERIFY(!m_directory->receipts(u"NAP"_s).isEmpty());
    QCoreApplication::processEvents();
    QVERIFY(m_directory->receipts(u"SHOUT"_s).isEmpty());
}

void TestFlowRunner::aStepsServerFaultIsToldToATokenHolderOnlyByItsId_data()
{
    QTest::addColumn<bool>("withToken");
    QTest::newRow("the owner reads the store's text") << false;
    QTest::newRow("a token holder reads a fault id") << true;
}

// A step whose row cannot be read (the directory table is gone under the flow) is refused
// with a 500. The flow's output carries that refusal: its text for the owner, and for a
// token holder only the id under which the owner finds it in the log.
void TestFlowRunner::aStepsServerFaultIsToldToATokenHolderOnlyByItsId()
{
    QFETCH(bool, withToken);
    InvocationRequest request;
    request.key = u"PAIR"_s;
    // The flow comes as a draft, so only its step reads the missing table.
    request.draft = flowTestRow(u"PAIR"_s, u"flow"_s, {}, u"SHOUT: a"_s);
    if (withToken) {
        CapabilityToken spec;
        spec.audience = u"planner"_s;
        spec.allowedKeys = {u"PAIR"_s, u"SHOUT"_s};
        const auto minted = m_directory->ledger->tokens().create(spec, u"owner:local"_s);
        QVERIFY2(minted.ok(), qPrintable(minted.error().message));
        request.token = minted.value().value;
        request.audience = u"planner"_s;
    }
    QVERIFY(QSqlQuery(m_directory->store->database()).exec(u"ALTER TABLE directory RENAME TO gone"_s));

    const InvocationOutcome outcome = FlowTestDirectory::await(m_directory->dispatcher->invoke(request));
    const QString output = outcome.result.output;
    QVERIFY2(output.startsWith(u"ERR: "_s), qPrintable(output));
    QCOMPARE(FaultNotice::isNotice(output.mid(5)), withToken);
    QCOMPARE(output.contains(u"no such table"_s), !withToken);
}

QTEST_GUILESS_MAIN(TestFlowRunner)
#include "tst_flowrunner.moc"
