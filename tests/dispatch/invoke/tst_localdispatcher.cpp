#include "dispatch/call/invocationhandle.h"
#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/localdispatcher.h"
#include "dispatch/receipts/receiptverifier.h"
#include "dispatch/runners/fnrunner.h"
#include "dispatch/runners/httpclient.h"
#include "dispatch/runners/httprunner.h"
#include "dispatch/secrets/environmentkeychainsecrets.h"
#include "dispatch/secrets/keychainstore.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/tokens/capabilitytokenstore.h"
#include "tests/support/secretservicepause.h"

#include <QElapsedTimer>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QRandomGenerator>
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
    void aRealCallCommitsOneSignedReceipt();
    void aFailedCallsReceiptIsNotMaterial();
    void shapeCallsWriteNoReceipt();
    void aNestedCallNamesItsParentAndSharesTheTrace();
    void aDroppedHandleStillGetsItsReceipt();
    void aTokenRefusalRunsNothingAndIsLogged();
    void aTokenHoldersCallIsTheirs();
    void aRowsKeychainSecretIsLookedUpWithoutWaiting();
    void aCallWhoseReceiptCannotBeSignedIsNotMade();
    void aCallCancelledWhileItsKeyIsUnlockedNeverStarts();
    void closingTheDirectoryBeforeACallStartsRanNothing();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::unique_ptr<LocalDispatcher> m_dispatcher;
    std::shared_ptr<DirectoryLedger> m_ledger;
};

void TestLocalDispatcher::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto opened = SqlDirectoryStore::open(m_dir->filePath(QStringLiteral("d.db")));
    QVERIFY(opened.ok());
    m_store = opened.value();
    Row disabled = fnRow(QStringLiteral("OFF_ROW"), QStringLiteral("echo"));
    disabled.enabled = false;
    Row flow = fnRow(QStringLiteral("A_FLOW"), QString());
    flow.type = QStringLiteral("flow");
    QVERIFY(!m_store
                 ->importRows({fnRow(QStringLiteral("SHOUT"), QStringLiteral("upper")),
                               fnRow(QStringLiteral("BOOM"), QStringLiteral("fail")),
                               fnRow(QStringLiteral("NAP"), QStringLiteral("sleep_ms")), disabled, flow})
                 .isError());
    m_ledger = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly);
    m_dispatcher = std::make_unique<LocalDispatcher>(m_store, nullptr, m_ledger);
    m_dispatcher->setRunner(QStringLiteral("fn"), std::make_unique<FnRunner>());
}

void TestLocalDispatcher::runsARowAndNamesTheInvocation()
{
    const InvocationOutcome outcome =
        await(m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("hi"), false, {}}));
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
    QTest::addRow("unknown key") << "NOPE"
                                 << "unknown key NOPE";
    QTest::addRow("disabled row") << "OFF_ROW"
                                  << "OFF_ROW is disabled";
    QTest::addRow("no runner for the type") << "A_FLOW"
                                            << "no flow runner in this build";
}

void TestLocalDispatcher::refusals()
{
    QFETCH(QString, key);
    QFETCH(QString, refusal);
    const InvocationOutcome outcome = await(m_dispatcher->invoke({key, QString(), false, {}}));
    QVERIFY(!outcome.ran);
    QCOMPARE(outcome.refusal, refusal);
    QCOMPARE(outcome.toResponse(), (QJsonObject{{QStringLiteral("ok"), false},
                                                {QStringLiteral("ran"), false},
                                                {QStringLiteral("error"), refusal}}));
}

void TestLocalDispatcher::shapeRunsNothingAndHasNoInvocationId()
{
    QElapsedTimer timer;
    timer.start();
    const InvocationOutcome outcome =
        await(m_dispatcher->invoke({QStringLiteral("NAP"), QStringLiteral("5000"), true, {}}));
    QVERIFY(timer.elapsed() < 2000);
    QVERIFY(outcome.shape);
    QVERIFY(outcome.invocationId.isEmpty());
    QCOMPARE(outcome.toResponse()
                 .value(QStringLiteral("request"))
                 .toObject()
                 .value(QStringLiteral("fn"))
                 .toString(),
             QStringLiteral("sleep_ms"));
}

void TestLocalDispatcher::aDraftIsRunInsteadOfTheStoredRow()
{
    Row draft = m_store->row(QStringLiteral("SHOUT")).value();
    draft.target = QStringLiteral("lower");
    const InvocationOutcome outcome =
        await(m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("HeLLo"), false, draft}));
    QCOMPARE(outcome.result.output, QStringLiteral("hello"));
    QCOMPARE(m_store->row(QStringLiteral("SHOUT")).value().target, QStringLiteral("upper"));
}

void TestLocalDispatcher::aDeletedHandleDropsTheLateResult()
{
    delete m_dispatcher->invoke({QStringLiteral("NAP"), QStringLiteral("50"), false, {}});
    // The result arrives for a handle that no longer exists: its receipt is written first,
    // then it is handed to no one. Receipts are issued in order, so the call after it is
    // answered only once that late result has been dropped.
    QTRY_COMPARE(m_ledger->receipts().list({}).value().size(), 1);
    const InvocationOutcome outcome =
        await(m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("ok"), false, {}}));
    QCOMPARE(outcome.result.output, QStringLiteral("OK"));
}

void TestLocalDispatcher::closingTheDirectoryFinishesRunningCalls()
{
    QVERIFY(m_ledger->signingKey().ok()); // so the call starts at once
    InvocationHandle *handle =
        m_dispatcher->invoke({QStringLiteral("NAP"), QStringLiteral("5000"), false, {}});
    QVERIFY(handle->hasStarted());
    QSignalSpy finished(handle, &InvocationHandle::finished);
    QElapsedTimer timer;
    timer.start();
    m_dispatcher.reset();
    QCOMPARE(finished.size(), 1);
    QVERIFY(timer.elapsed() < 1000);
    QCOMPARE(handle->outcome().result.output, QStringLiteral("ERR: cancelled: the directory was closed"));
    delete handle;
}

void TestLocalDispatcher::aRealCallCommitsOneSignedReceipt()
{
    const InvocationOutcome outcome =
        await(m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("hi"), false, {}}));
    QVERIFY2(outcome.receipt, qPrintable(outcome.receiptError));
    // Committed before the handle reported: a fresh connection to the file sees it.
    auto reopened = SqlDirectoryStore::open(m_store->location());
    QVERIFY(reopened.ok());
    const StoreResult<Receipt> stored = ReceiptLog(reopened.value()->database()).find(outcome.invocationId);
    QVERIFY2(stored.ok(), qPrintable(stored.error().message));
    const Receipt &receipt = stored.value();
    QCOMPARE(receipt.toJson(), outcome.receipt->toJson());
    QCOMPARE(receipt.trace, outcome.trace);
    QCOMPARE(receipt.key, QStringLiteral("SHOUT"));
    QVERIFY(receipt.parent.isNull());
    QCOMPARE(receipt.actor, QStringLiteral("owner:local"));
    QCOMPARE(receipt.runner, QStringLiteral("fn"));
    QVERIFY(receipt.material);
    QCOMPARE(receipt.status, QStringLiteral("PROVEN_MATERIAL_RESULT"));
    QCOMPARE(receipt.costUsd, 0.0);
    QCOMPARE(receipt.inputFingerprint,
             QStringLiteral("8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"));
    QCOMPARE(receipt.outputFingerprint, Receipt::sha256Hex(QStringLiteral("HI")));
    QCOMPARE(receipt.contractFingerprint,
             ContractFingerprint::of(m_store->row(QStringLiteral("SHOUT")).value()));
    QCOMPARE(ReceiptVerifier::check(receipt.toJson(), m_ledger->publicKeys()),
             ReceiptVerifier::Result::Valid);

    const QJsonObject proof = outcome.toResponse().value(QStringLiteral("proof")).toObject();
    QCOMPARE(proof.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(proof.value(QStringLiteral("receipt")).toObject(), receipt.toJson());
}

void TestLocalDispatcher::aFailedCallsReceiptIsNotMaterial()
{
    const InvocationOutcome outcome =
        await(m_dispatcher->invoke({QStringLiteral("BOOM"), QStringLiteral("bad"), false, {}}));
    QCOMPARE(outcome.result.output, QStringLiteral("ERR: bad"));
    QVERIFY(outcome.receipt);
    QCOMPARE(outcome.receipt->material, false);
    QCOMPARE(outcome.receipt->status, QStringLiteral("RAN_WITHOUT_MATERIAL_RESULT"));
    QCOMPARE(m_ledger->confirm(outcome.invocationId).value(QStringLiteral("status")).toString(),
             QStringLiteral("RAN_WITHOUT_MATERIAL_RESULT"));
}

void TestLocalDispatcher::shapeCallsWriteNoReceipt()
{
    const InvocationOutcome outcome =
        await(m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("hi"), true, {}}));
    QVERIFY(outcome.shape);
    QVERIFY(!outcome.receipt);
    QCOMPARE(m_ledger->receipts().list({}).value().size(), 0);
}

void TestLocalDispatcher::aNestedCallNamesItsParentAndSharesTheTrace()
{
    const InvocationOutcome outer =
        await(m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("a"), false, {}}));
    InvocationRequest nested{QStringLiteral("SHOUT"), QStringLiteral("b"), false, {}};
    nested.parentInvocationId = outer.invocationId;
    nested.trace = outer.trace;
    const InvocationOutcome inner = await(m_dispatcher->invoke(nested));
    QCOMPARE(inner.receipt->parent, outer.invocationId);
    QCOMPARE(inner.receipt->trace, outer.trace);
    QVERIFY(inner.invocationId != outer.invocationId);
    ReceiptLog::Query children;
    children.parent = outer.invocationId;
    QCOMPARE(m_ledger->receipts().list(children).value().size(), 1);
}

void TestLocalDispatcher::aDroppedHandleStillGetsItsReceipt()
{
    delete m_dispatcher->invoke({QStringLiteral("NAP"), QStringLiteral("20"), false, {}});
    QTRY_COMPARE(m_ledger->receipts().list({}).value().size(), 1);
    QCOMPARE(m_ledger->receipts().list({}).value().first().key, QStringLiteral("NAP"));
}

void TestLocalDispatcher::aTokenRefusalRunsNothingAndIsLogged()
{
    CapabilityToken spec;
    spec.audience = QStringLiteral("planner");
    spec.allowedKeys = {QStringLiteral("SHOUT")};
    const StoreResult<CapabilityTokenStore::Minted> minted =
        m_ledger->tokens().create(spec, QStringLiteral("owner:local"));
    QVERIFY2(minted.ok(), qPrintable(minted.error().message));

    InvocationRequest request{QStringLiteral("NAP"), QStringLiteral("1"), false, {}};
    request.token = minted.value().value;
    request.audience = QStringLiteral("planner");
    const InvocationOutcome outcome = await(m_dispatcher->invoke(request));
    QVERIFY(!outcome.ran);
    QCOMPARE(outcome.refusal, QStringLiteral("scope:NAP"));
    QCOMPARE(outcome.refusalStatus, 403);
    QCOMPARE(m_ledger->receipts().list({}).value().size(), 0);

    QList<LogEvent> events = EventLog(m_store->database()).events().value();
    events.removeIf([](const LogEvent &event) { return event.kind != QLatin1String("CAPABILITY_REFUSED"); });
    QCOMPARE(events.size(), 1);
    QCOMPARE(events.first().key, QStringLiteral("NAP"));
    QCOMPARE(events.first().kind, QStringLiteral("CAPABILITY_REFUSED"));
    QCOMPARE(events.first().actor, QStringLiteral("token:") + minted.value().token.id);
    QCOMPARE(events.first().detail.value(QStringLiteral("reason")).toString(), QStringLiteral("scope:NAP"));

    request.token = QStringLiteral("cdt_not-a-token");
    QCOMPARE(await(m_dispatcher->invoke(request)).refusal, QStringLiteral("unknown_token"));
}

void TestLocalDispatcher::aTokenHoldersCallIsTheirs()
{
    CapabilityToken spec;
    spec.audience = QStringLiteral("planner");
    spec.allowedKeys = {QStringLiteral("SHOUT")};
    const StoreResult<CapabilityTokenStore::Minted> created =
        m_ledger->tokens().create(spec, QStringLiteral("owner:local"));
    QVERIFY2(created.ok(), qPrintable(created.error().message));
    const CapabilityTokenStore::Minted &minted = created.value();
    InvocationRequest request{QStringLiteral("SHOUT"), QStringLiteral("hi"), false, {}};
    request.token = minted.value;
    request.audience = QStringLiteral("planner");
    const InvocationOutcome outcome = await(m_dispatcher->invoke(request));
    QCOMPARE(outcome.result.output, QStringLiteral("HI"));
    QCOMPARE(outcome.receipt->actor, QStringLiteral("token:") + minted.token.id);
}

void TestLocalDispatcher::aRowsKeychainSecretIsLookedUpWithoutWaiting()
{
    KeychainStore keychain;
    QString why;
    if (!keychain.available(&why))
        QSKIP(qPrintable(QStringLiteral("needs a Secret Service: ") + why));
    const QString name =
        QStringLiteral("CAPDESK_TST_LD_TOKEN_%1").arg(QRandomGenerator::global()->generate(), 0, 16);
    QVERIFY2(keychain.set(name, QStringLiteral("kc-token")), qPrintable(name));

    QHttpServer upstream;
    QString authorization;
    upstream.route(QStringLiteral("/who"), [&](const QHttpServerRequest &request) {
        authorization = QString::fromLatin1(request.value("authorization"));
        return QHttpServerResponse(QByteArrayLiteral("text/plain"), QByteArrayLiteral("ok"));
    });
    const quint16 port = upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(port != 0);
    HttpClient client;
    LocalDispatcher dispatcher(m_store, std::make_shared<EnvironmentKeychainSecrets>(keychain), m_ledger);
    dispatcher.setRunner(QStringLiteral("http"), std::make_unique<HttpRunner>(client));
    Row row = fnRow(QStringLiteral("WHO"), QStringLiteral("GET http://127.0.0.1:%1/who").arg(port));
    row.type = QStringLiteral("http");
    row.auth = QStringLiteral("bearer:") + name;

    // The Secret Service answers 600 ms late: invoke() must not wait for it, the call must.
    constexpr int kPauseMs = 600;
    SecretServicePause pause;
    QVERIFY2(pause.pauseFor(kPauseMs, &why), qPrintable(why));
    QElapsedTimer took;
    took.start();
    InvocationHandle *handle = dispatcher.invoke({row.key, QString(), false, row});
    const qint64 invokeMs = took.elapsed();
    const InvocationOutcome outcome = await(handle);
    const qint64 callMs = took.elapsed();
    QVERIFY(keychain.remove(name));
    QVERIFY2(invokeMs < 100, qPrintable(QStringLiteral("invoke() took %1 ms").arg(invokeMs)));
    QVERIFY2(callMs >= kPauseMs / 2, qPrintable(QStringLiteral("the call took %1 ms").arg(callMs)));
    QCOMPARE(outcome.result.output, QStringLiteral("HTTP 200:ok"));
    QCOMPARE(authorization, QStringLiteral("Bearer kc-token"));
    QVERIFY2(outcome.receipt, qPrintable(outcome.receiptError));
    QVERIFY(pause.waitUntilResumed(5000));
}

// The directory signs with a key already; a ledger pointed at a key file that holds nothing
// cannot sign, and the upstream must not hear of a call that would go unreceipted.
void TestLocalDispatcher::aCallWhoseReceiptCannotBeSignedIsNotMade()
{
    QVERIFY(m_ledger->signingKey().ok());
    const QString missing = m_dir->filePath(QStringLiteral("typo.pem"));
    const auto cannotSign =
        std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly,
                                          CapabilityGateRefusalCounter::kDefaultIntervalMs, missing);
    QHttpServer upstream;
    int requests = 0;
    upstream.route(QStringLiteral("/effect"), [&requests] {
        ++requests;
        return QHttpServerResponse(QByteArrayLiteral("text/plain"), QByteArrayLiteral("done"));
    });
    const quint16 port = upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(port != 0);
    HttpClient client;
    LocalDispatcher dispatcher(m_store, nullptr, cannotSign);
    dispatcher.setRunner(QStringLiteral("http"), std::make_unique<HttpRunner>(client));
    Row row = fnRow(QStringLiteral("EFFECT"), QStringLiteral("POST http://127.0.0.1:%1/effect").arg(port));
    row.type = QStringLiteral("http");

    const InvocationOutcome outcome = await(dispatcher.invoke({row.key, QStringLiteral("x"), false, row}));
    QVERIFY(!outcome.ran);
    QVERIFY(outcome.invocationId.isEmpty());
    QCOMPARE(outcome.refusalStatus, 500);
    QVERIFY2(outcome.refusal.startsWith(QStringLiteral("cannot sign receipts: no key file at ") + missing),
             qPrintable(outcome.refusal));
    QVERIFY(!outcome.receipt);
    QCOMPARE(requests, 0);
    QVERIFY(!QFile::exists(missing));

    // The shape of the call sends nothing and writes no receipt: it needs no key.
    InvocationRequest shape{row.key, QStringLiteral("x"), true, row};
    const InvocationOutcome shaped = await(dispatcher.invoke(shape));
    QVERIFY2(shaped.refusal.isEmpty(), qPrintable(shaped.refusal));
    QCOMPARE(requests, 0);
}

// The ledger's first call waits for its key; cancelled meanwhile, it is not started late.
void TestLocalDispatcher::aCallCancelledWhileItsKeyIsUnlockedNeverStarts()
{
    QVERIFY(!m_ledger->holdsSigningKey());
    InvocationHandle *handle =
        m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("hi"), false, {}});
    QVERIFY(!handle->isFinished());
    handle->cancel();
    const InvocationOutcome outcome = await(handle);
    QVERIFY(!outcome.ran);
    QVERIFY(outcome.invocationId.isEmpty());
    QVERIFY2(outcome.refusal.startsWith(QStringLiteral("stopped before it started")),
             qPrintable(outcome.refusal));
    QVERIFY(!outcome.receipt);
    QVERIFY(m_ledger->holdsSigningKey());
    QCOMPARE(m_ledger->receipts().list({}).value().size(), 0);
}

// The first call waits for its key; the directory closes meanwhile. Nothing ran, and the
// answer says so rather than "cancelled" as for a call a runner had.
void TestLocalDispatcher::closingTheDirectoryBeforeACallStartsRanNothing()
{
    QVERIFY(!m_ledger->holdsSigningKey());
    InvocationHandle *handle =
        m_dispatcher->invoke({QStringLiteral("SHOUT"), QStringLiteral("hi"), false, {}});
    QVERIFY(!handle->isFinished());
    QSignalSpy finished(handle, &InvocationHandle::finished);
    m_dispatcher.reset();
    QCOMPARE(finished.size(), 1);
    const InvocationOutcome &outcome = handle->outcome();
    QVERIFY(!outcome.ran);
    QVERIFY(outcome.invocationId.isEmpty());
    QCOMPARE(outcome.refusal, QStringLiteral("not run: the directory was closed before the call started"));
    QCOMPARE(outcome.refusalStatus, 503);
    QCOMPARE(m_ledger->receipts().list({}).value().size(), 0);
    delete handle;
}

QTEST_GUILESS_MAIN(TestLocalDispatcher)
#include "tst_localdispatcher.moc"
