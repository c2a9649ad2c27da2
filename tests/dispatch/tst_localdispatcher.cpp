#include "fnrunner.h"
#include "invocationhandle.h"
#include "localdispatcher.h"
#include "sqlitedirectorystore.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

Row fnRow(const QString &key, const QString &target, const QString &payload = {})
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = target;
    row.content = QStringLiteral("# WHAT: test\n") + payload;
    row.updatedAt = QStringLiteral("2026-01-01T00:00:00.000Z");
    return row;
}

InvocationOutcome await(InvocationHandle *handle)
{
    if (!handle->isFinished()) {
        QSignalSpy finished(handle, &InvocationHandle::finished);
        finished.wait(10000);
    }
    InvocationOutcome outcome = handle->outcome();
    delete handle;
    return outcome;
}

} // namespace

// The one invocation path, with the real fn runner over a real store.
class TestLocalDispatcher : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void runsARowAndNamesTheInvocation();
    void refusals_data();
    void refusals();
    void shapeRunsNothingAndHasNoInvocationId();
    void aDraftIsRunInsteadOfTheStoredRow();
    void aDeletedHandleDropsTheLateResult();
    void closingTheDirectoryFinishesRunningCalls();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqliteDirectoryStore> m_store;
    std::unique_ptr<LocalDispatcher> m_dispatcher;
};

void TestLocalDispatcher::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto opened = SqliteDirectoryStore::open(m_dir->filePath(QStringLiteral("d.db")));
    QVERIFY(opened.ok());
    m_store = opened.value();
    Row disabled = fnRow(QStringLiteral("OFF_ROW"), QStringLiteral("echo"));
    disabled.enabled = false;
    Row flow = fnRow(QStringLiteral("A_FLOW"), QString());
    flow.type = QStringLiteral("flow");
    QVERIFY(!m_store->importRows({fnRow(QStringLiteral("SHOUT"), QStringLiteral("upper")),
                                  fnRow(QStringLiteral("NAP"), QStringLiteral("sleep_ms")), disabled, flow})
                 .isError());
    m_dispatcher = std::make_unique<LocalDispatcher>(m_store, nullptr);
    m_dispatcher->setRunner(QStringLiteral("fn"), std::make_unique<FnRunner>());
}

void TestLocalDispatcher::runsARowAndNamesTheInvocation()
{
    const InvocationOutcome outcome = await(m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("hi"), false, {}}));
    QVERIFY(outcome.ran);
    QVERIFY(outcome.material());
    QCOMPARE(outcome.runner, QStringLiteral("fn"));
    QCOMPARE(outcome.result.output, QStringLiteral("HI"));
    QVERIFY(QRegularExpression(QStringLiteral("^inv_[0-9a-z]{10}$")).match(outcome.invocationId).hasMatch());
    QVERIFY(QRegularExpression(QStringLiteral("^t_[0-9a-z]{8}$")).match(outcome.trace).hasMatch());
}

void TestLocalDispatcher::refusals_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("refusal");
    QTest::addRow("unknown key") << "NOPE" << "unknown key NOPE";
    QTest::addRow("disabled row") << "OFF_ROW" << "OFF_ROW is disabled";
    QTest::addRow("no runner for the type") << "A_FLOW" << "no flow runner in this build";
}

void TestLocalDispatcher::refusals()
{
    QFETCH(QString, key);
    QFETCH(QString, refusal);
    const InvocationOutcome outcome = await(m_dispatcher->invoke({key, QString(), false, {}}));
    QVERIFY(!outcome.ran);
    QCOMPARE(outcome.refusal, refusal);
    QCOMPARE(outcome.toResponse(), (QJsonObject{{QStringLiteral("ok"), false}, {QStringLiteral("ran"), false},
                                                {QStringLiteral("error"), refusal}}));
}

void TestLocalDispatcher::shapeRunsNothingAndHasNoInvocationId()
{
    QElapsedTimer timer;
    timer.start();
    const InvocationOutcome outcome = await(m_dispatcher->invoke({QStringLiteral("NAP"), QStringLiteral("5000"), true, {}}));
    QVERIFY(timer.elapsed() < 2000);
    QVERIFY(outcome.shape);
    QVERIFY(outcome.invocationId.isEmpty());
    QCOMPARE(outcome.toResponse().value(QStringLiteral("request")).toObject().value(QStringLiteral("fn")).toString(),
             QStringLiteral("sleep_ms"));
}

void TestLocalDispatcher::aDraftIsRunInsteadOfTheStoredRow()
{
    Row draft = m_store->row(QStringLiteral("SHOUT")).value();
    draft.target = QStringLiteral("lower");
    const InvocationOutcome outcome = await(m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("HeLLo"), false, draft}));
    QCOMPARE(outcome.result.output, QStringLiteral("hello"));
    QCOMPARE(m_store->row(QStringLiteral("SHOUT")).value().target, QStringLiteral("upper"));
}

void TestLocalDispatcher::aDeletedHandleDropsTheLateResult()
{
    delete m_dispatcher->invoke({QStringLiteral("NAP"), QStringLiteral("50"), false, {}});
    QTest::qWait(150); // the result arrives for a handle that no longer exists
    const InvocationOutcome outcome = await(m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("ok"), false, {}}));
    QCOMPARE(outcome.result.output, QStringLiteral("OK"));
}

void TestLocalDispatcher::closingTheDirectoryFinishesRunningCalls()
{
    InvocationHandle *handle = m_dispatcher->invoke({QStringLiteral("NAP"), QStringLiteral("5000"), false, {}});
    QSignalSpy finished(handle, &InvocationHandle::finished);
    QElapsedTimer timer;
    timer.start();
    m_dispatcher.reset();
    QCOMPARE(finished.size(), 1);
    QVERIFY(timer.elapsed() < 1000);
    QCOMPARE(handle->outcome().result.output, QStringLiteral("ERR: cancelled: the directory was closed"));
    delete handle;
}

QTEST_GUILESS_MAIN(TestLocalDispatcher)
#include "tst_localdispatcher.moc"
