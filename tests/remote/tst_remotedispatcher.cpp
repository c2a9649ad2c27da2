#include "dispatch/call/invocationhandle.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "dispatch/store/sqldirectorystore.h"
#include "remote/remotedirectorystore.h"
#include "remote/remotedispatcher.h"
#include "remote/serverconnection.h"
#include "tests/remote/remotetestsupport.h"
#include "tests/support/minimalserver.h"
#include "tests/support/processrun.h"
#include "tests/support/refusingport.h"
#include "tests/support/serveprocess.h"

#include <QElapsedTimer>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("tst-dispatch-owner-key-0c4e8a2f6b9d");
// The served directory answers a dispatch still running after this with 504.
constexpr int kDispatchTimeoutMs = 1500;

InvocationRequest call(const QString &key, const QString &body, const QString &token = {})
{
    InvocationRequest request;
    request.key = key;
    request.body = body;
    request.token = token;
    request.audience = u"tests"_s;
    return request;
}

} // namespace

// RemoteDispatcher against a real `capdeskctl serve`: the outcome a local call would give,
// the server's refusals in its own words and status, and a caller that never waits.
class TestRemoteDispatcher : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void realCallCarriesTheSignedReceipt();
    void shapeMatchesALocalShape();
    void refusals_data();
    void refusals();
    void pinnedTokenRefusedAfterTheContractChanged();
    void unreachableServerIsARefusal();
    void invokeReturnsAtOnce();
    void handleOrDispatcherMayGoFirst();
    void unsavedDraftIsRefused();
    void tokenCallsCarryNoOwnerKey();

private:
    QByteArray mintToken(const QStringList &options);
    std::shared_ptr<ServerConnection> connection(const QByteArray &key = kOwnerKey) const
    {
        return std::make_shared<ServerConnection>(
            ServerEndpoint{m_serve.baseUrl(), QString::fromLatin1(key)});
    }

    QTemporaryDir m_dir;
    QString m_db;
    ServeProcess m_serve;
    std::shared_ptr<RemoteDirectoryStore> m_store;
    QHttpServer m_upstream;
    quint16 m_upstreamPort = 0;
    QByteArray m_echoToken;
    QByteArray m_smallToken;
};

void TestRemoteDispatcher::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(u"served.db"_s);
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {u"init"_s, u"--db"_s, m_db}).exitCode, 0);
    QString error;
    QVERIFY2(m_serve.start(m_db, kOwnerKey, &error,
                           {u"--dispatch-timeout"_s, QString::number(kDispatchTimeoutMs)}),
             qPrintable(error));
    m_upstream.route(u"/v1/forecast"_s, [] {
        return QHttpServerResponse(QJsonObject{{u"temperature_2m"_s, 15.7}});
    });
    m_upstreamPort = m_upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(m_upstreamPort != 0);

    m_store = std::make_shared<RemoteDirectoryStore>(connection());
    const QString weather =
        u"GET http://127.0.0.1:%1/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m"_s.arg(
            m_upstreamPort);
    for (const Row &row : {documentedRow(u"ZZ_ECHO"_s, u"fn"_s, u"echo"_s),
                           documentedRow(u"ZZ_SLOW"_s, u"fn"_s, u"sleep_ms"_s),
                           documentedRow(u"ZZ_WEATHER"_s, u"http"_s, weather),
                           documentedRow(u"ZZ_PINNED"_s, u"fn"_s, u"echo"_s)}) {
        const StoreResult<WriteOutcome> created = m_store->create(row);
        QVERIFY2(created.ok(), qPrintable(created.error().message));
    }
    m_echoToken = mintToken({u"--keys"_s, u"ZZ_ECHO"_s});
    m_smallToken = mintToken({u"--keys"_s, u"ZZ_ECHO"_s, u"--payload-ceiling"_s, u"4"_s});
    QVERIFY(!m_echoToken.isEmpty() && !m_smallToken.isEmpty());
}

void TestRemoteDispatcher::cleanupTestCase()
{
    m_store.reset();
    m_serve.stop();
}

QByteArray TestRemoteDispatcher::mintToken(const QStringList &options)
{
    const ProcessRun::Result run = ProcessRun::run(
        ServeProcess::program(),
        QStringList{u"token"_s, u"create"_s, u"--db"_s, m_db, u"--audience"_s, u"tests"_s} + options);
    return QJsonDocument::fromJson(run.out).object().value(u"value"_s).toString().toUtf8();
}

void TestRemoteDispatcher::realCallCarriesTheSignedReceipt()
{
    RemoteDispatcher dispatcher(connection());
    const InvocationOutcome outcome = invokeAndWait(dispatcher, call(u"ZZ_WEATHER"_s, u"37.77|-122.42"_s));
    QVERIFY2(outcome.refusal.isEmpty(), qPrintable(outcome.refusal));
    QVERIFY(outcome.material());
    QCOMPARE(outcome.result.output, u"HTTP 200:{\"temperature_2m\":15.7}"_s);
    QVERIFY(outcome.durationMs >= 0);
    QVERIFY2(outcome.receipt.has_value(), qPrintable(outcome.receiptError));
    QCOMPARE(outcome.receipt->invocationId, outcome.invocationId);
    QCOMPARE(outcome.receipt->trace, outcome.trace);
    QCOMPARE(outcome.receipt->key, u"ZZ_WEATHER"_s);
    QVERIFY(outcome.receipt->material);
    QCOMPARE(outcome.receipt->outputFingerprint, Receipt::sha256Hex(outcome.result.output));
    QCOMPARE(outcome.runner, u"http"_s);
    // The response object a front end shows is the one a local call gives.
    const QJsonObject response = outcome.toResponse();
    QCOMPARE(response.value(u"ok"_s), QJsonValue(true));
    QCOMPARE(response.value(u"proof"_s).toObject().value(u"invocation_id"_s).toString(),
             outcome.invocationId);
}

void TestRemoteDispatcher::shapeMatchesALocalShape()
{
    RemoteDispatcher remote(connection());
    StoreResult<std::shared_ptr<SqlDirectoryStore>> local = SqlDirectoryStore::open(m_db);
    QVERIFY(local.ok());
    StandardDispatcher localDispatcher(local.value(), std::make_shared<DirectoryLedger>(local.value()));
    for (const QString &key : {u"ZZ_WEATHER"_s, u"ZZ_ECHO"_s}) {
        InvocationRequest request = call(key, u"37.77|-122.42"_s);
        request.shape = true;
        const InvocationOutcome there = invokeAndWait(remote, request);
        const InvocationOutcome here = invokeAndWait(localDispatcher, request);
        QVERIFY2(there.refusal.isEmpty(), qPrintable(there.refusal));
        QVERIFY(there.shape);
        QVERIFY(there.ran);
        QVERIFY(!there.receipt && there.invocationId.isEmpty());
        QCOMPARE(there.runner, here.runner);
        QCOMPARE(there.result.shapeRequest, here.result.shapeRequest);
        QCOMPARE(there.result.notes, here.result.notes);
        QCOMPARE(there.toResponse(), here.toResponse());
    }
}

void TestRemoteDispatcher::refusals_data()
{
    QTest::addColumn<QByteArray>("ownerKey");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("token"); // "echo", "small" or none
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("words");
    QTest::addRow("unknown key: 404")
        << kOwnerKey << u"ZZ_NOPE"_s << QString() << QString() << 404 << u"unknown key ZZ_NOPE"_s;
    QTest::addRow("wrong owner key: 401")
        << QByteArrayLiteral("wrong-key-wrong-key-wrong-key-000") << u"ZZ_ECHO"_s << u"x"_s << QString()
        << 401 << u"the server refused the owner key"_s;
    QTest::addRow("no owner key: 401") << QByteArray() << u"ZZ_ECHO"_s << u"x"_s << QString() << 401
                                       << u"the server refused the owner key"_s;
    QTest::addRow("token outside its scope: 403")
        << QByteArray() << u"ZZ_SLOW"_s << u"1"_s << u"echo"_s << 403 << u"scope:ZZ_SLOW"_s;
    QTest::addRow("payload over the token's ceiling: 413")
        << QByteArray() << u"ZZ_ECHO"_s << u"too long"_s << u"small"_s << 413 << u"payload_ceiling:"_s;
    QTest::addRow("body over the server's limit: 413")
        << kOwnerKey << u"ZZ_ECHO"_s << QString(1024 * 1024 + 1, u'x') << QString() << 413
        << u"request body over"_s;
    QTest::addRow("still running at the server's timeout: 504")
        << kOwnerKey << u"ZZ_SLOW"_s << u"8000"_s << QString() << 504
        << u"the invocation did not finish within %1 ms"_s.arg(kDispatchTimeoutMs);
}

void TestRemoteDispatcher::refusals()
{
    QFETCH(QByteArray, ownerKey);
    QFETCH(QString, key);
    QFETCH(QString, body);
    QFETCH(QString, token);
    QFETCH(int, status);
    QFETCH(QString, words);
    RemoteDispatcher dispatcher(connection(ownerKey));
    const QByteArray value = token == u"echo"_s    ? m_echoToken
                             : token == u"small"_s ? m_smallToken
                                                   : QByteArray();
    const InvocationOutcome outcome = invokeAndWait(dispatcher, call(key, body, QString::fromLatin1(value)));
    QCOMPARE(outcome.refusalStatus, status);
    QVERIFY2(outcome.refusal.startsWith(words), qPrintable(outcome.refusal));
    QVERIFY(!outcome.ran);
    QCOMPARE(outcome.toResponse().value(u"error"_s).toString(), outcome.refusal);
}

void TestRemoteDispatcher::pinnedTokenRefusedAfterTheContractChanged()
{
    const QByteArray pinned = mintToken({u"--keys"_s, u"ZZ_PINNED"_s, u"--pin"_s, u"ZZ_PINNED"_s});
    RemoteDispatcher dispatcher(connection(QByteArray()));
    QVERIFY(invokeAndWait(dispatcher, call(u"ZZ_PINNED"_s, u"hi"_s, QString::fromLatin1(pinned))).material());
    QVERIFY(m_store->patch(u"ZZ_PINNED"_s, {{u"target"_s, u"upper"_s}}).ok());
    const InvocationOutcome changed =
        invokeAndWait(dispatcher, call(u"ZZ_PINNED"_s, u"hi"_s, QString::fromLatin1(pinned)));
    QCOMPARE(changed.refusalStatus, 409);
    QVERIFY2(changed.refusal.startsWith(u"contract_changed:"_s), qPrintable(changed.refusal));
}

void TestRemoteDispatcher::unreachableServerIsARefusal()
{
    const RefusingPort probe;
    QVERIFY(probe.port() != 0);
    const QUrl url(u"http://127.0.0.1:%1"_s.arg(probe.port()));
    RemoteDispatcher dispatcher(
        std::make_shared<ServerConnection>(ServerEndpoint{url, QString::fromLatin1(kOwnerKey)}));
    const InvocationOutcome outcome = invokeAndWait(dispatcher, call(u"ZZ_ECHO"_s, u"x"_s));
    QCOMPARE(outcome.refusal, u"server %1 did not answer: connection refused"_s.arg(url.toString()));
    QCOMPARE(outcome.refusalStatus, 0);
    QVERIFY(!outcome.ran);
}

void TestRemoteDispatcher::invokeReturnsAtOnce()
{
    RemoteDispatcher dispatcher(connection());
    QElapsedTimer clock;
    clock.start();
    std::unique_ptr<InvocationHandle> handle(dispatcher.invoke(call(u"ZZ_SLOW"_s, u"400"_s)));
    QVERIFY(clock.elapsed() < 100);
    QVERIFY(!handle->isFinished());
    int finished = 0;
    connect(handle.get(), &InvocationHandle::finished, this, [&finished] { ++finished; });
    QTRY_VERIFY_WITH_TIMEOUT(handle->isFinished(), 10000);
    QVERIFY(clock.elapsed() >= 400);
    QCOMPARE(finished, 1);
    QVERIFY2(handle->outcome().material(), qPrintable(handle->outcome().refusal));
}

void TestRemoteDispatcher::handleOrDispatcherMayGoFirst()
{
    const std::shared_ptr<ServerConnection> shared = connection(); // as the store shares it
    auto dispatcher = std::make_unique<RemoteDispatcher>(shared);
    delete dispatcher->invoke(call(u"ZZ_SLOW"_s, u"200"_s)); // the caller lost interest
    std::unique_ptr<InvocationHandle> kept(dispatcher->invoke(call(u"ZZ_SLOW"_s, u"200"_s)));
    dispatcher.reset(); // the dispatcher went first; the connection lives on
    QTRY_VERIFY_WITH_TIMEOUT(kept->isFinished(), 10000);
    QVERIFY(kept->outcome().material());
    // The dropped call's answer arrives to no one, harmlessly: nothing is in flight once it
    // has come back.
    QTRY_COMPARE_WITH_TIMEOUT(shared->inFlight(), 0, 10000);

    // The whole connection closed (the directory was closed): the call ends, named.
    std::shared_ptr<ServerConnection> own = connection();
    const std::weak_ptr<ServerConnection> closing = own; // the dispatcher is its only owner
    dispatcher = std::make_unique<RemoteDispatcher>(std::move(own));
    std::unique_ptr<InvocationHandle> cut(dispatcher->invoke(call(u"ZZ_SLOW"_s, u"2000"_s)));
    // The call is on its way (in flight) before the connection closes under it.
    // -1 once the connection is gone; a null lock() is never dereferenced.
    const auto inFlight = [&closing] {
        const std::shared_ptr<ServerConnection> alive = closing.lock();
        return alive ? alive->inFlight() : -1;
    };
    QTRY_COMPARE(inFlight(), 1);
    dispatcher.reset();
    QTRY_VERIFY_WITH_TIMEOUT(cut->isFinished(), 1000);
    QVERIFY2(cut->outcome().refusal.endsWith(u"did not answer: the connection was closed"_s),
             qPrintable(cut->outcome().refusal));
}

void TestRemoteDispatcher::unsavedDraftIsRefused()
{
    RemoteDispatcher dispatcher(connection());
    InvocationRequest request = call(u"ZZ_ECHO"_s, u"x"_s);
    request.draft = documentedRow(u"ZZ_ECHO"_s, u"fn"_s, u"upper"_s);
    const InvocationOutcome outcome = invokeAndWait(dispatcher, request);
    QVERIFY(!outcome.ran);
    QVERIFY2(outcome.refusal.contains(u"unsaved edits"_s), qPrintable(outcome.refusal));
}

void TestRemoteDispatcher::tokenCallsCarryNoOwnerKey()
{
    MinimalServer recorder(kOwnerKey);
    QString error;
    QVERIFY(recorder.listen(&error));
    RemoteDispatcher dispatcher(std::make_shared<ServerConnection>(
        ServerEndpoint{recorder.baseUrl(), QString::fromLatin1(kOwnerKey)}));
    invokeAndWait(dispatcher, call(u"ZZ_ECHO"_s, u"x"_s, u"cdt_value"_s));
    InvocationRequest owner = call(u"ZZ_ECHO"_s, u"x"_s, u"cdt_value"_s);
    owner.ownerPresent = true;
    invokeAndWait(dispatcher, owner);
    const QList<MinimalServer::Request> sent = recorder.requests("POST", u"/api/dispatch"_s);
    QCOMPARE(sent.size(), 2);
    QCOMPARE(sent.at(0).header("Authorization"), QByteArray("Bearer cdt_value"));
    QCOMPARE(sent.at(0).header("x-capability-audience"), QByteArray("tests"));
    QVERIFY(!sent.at(0).hadOwnerKey);
    QVERIFY(sent.at(1).hadOwnerKey); // the owner is present for an owner-gated token
    QCOMPARE(sent.at(0).json(), (QJsonObject{{u"key"_s, u"ZZ_ECHO"_s}, {u"body"_s, u"x"_s}}));
}

QTEST_MAIN(TestRemoteDispatcher)
#include "tst_remotedispatcher.moc"
