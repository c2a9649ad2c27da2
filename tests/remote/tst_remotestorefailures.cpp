#include "remote/serverconnection.h"
#include "tests/remote/remotestorefixture.h"
#include "tests/remote/remotetestsupport.h"
#include "tests/support/processrun.h"
#include "tests/support/refusingport.h"
#include "tests/support/testcertificates.h"

#include <QElapsedTimer>
#include <QSslError>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace {

// Answers every request with more than a directory answer may hold (64 MiB): "announce"
// declares 64 MiB + 1 byte in Content-Length and then sends nothing; "stream" sends
// chunks without a length for as long as the client reads them (at most 96 MiB).
class OversizedAnswerServer final : public QTcpServer
{
public:
    explicit OversizedAnswerServer(QByteArray mode) : m_mode(std::move(mode))
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection())
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] { answer(socket); });
        });
    }

private:
    static constexpr qint64 kChunk = 1024 * 1024;
    static constexpr qint64 kMost = 96 * kChunk;

    void answer(QTcpSocket *socket)
    {
        socket->readAll();
        if (m_mode == "announce") {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                          + QByteArray::number(64 * kChunk + 1) + "\r\n\r\n");
            return;
        }
        socket->write(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
        connect(socket, &QTcpSocket::bytesWritten, socket, [this, socket] {
            if (socket->bytesToWrite() < kChunk && m_sent < kMost) {
                socket->write(QByteArray::number(kChunk, 16) + "\r\n" + QByteArray(kChunk, ' ') + "\r\n");
                m_sent += kChunk;
            }
        });
    }

    QByteArray m_mode;
    qint64 m_sent = 0;
};

} // namespace

Q_DECLARE_METATYPE(TestCertificates::Server)

// RemoteDirectoryStore when the server cannot or will not answer: a wrong owner key, a
// server down, silent, killed or oversized in its answers, TLS refusals, keys no row can
// have, and the owner key kept out of every URL.
class TestRemoteStoreFailures : public QObject, private RemoteStoreFixture
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void wrongKeyIsUnauthorized_data() { servers(); }
    void wrongKeyIsUnauthorized();
    void serverDownIsUnreachableAtOnce();
    void silentServerTimesOut();
    void killedServerComesBack();
    void connectionCheck();
    void ownerKeyNeverInUrls();
    void oversizedAnswersAreNamedErrors_data();
    void oversizedAnswersAreNamedErrors();
    void https_data();
    void https();
    void keysNoRowCanHaveSendNothing();
};

void TestRemoteStoreFailures::initTestCase()
{
    startServers();
}

void TestRemoteStoreFailures::cleanupTestCase()
{
    m_serve.stop();
}

void TestRemoteStoreFailures::wrongKeyIsUnauthorized()
{
    QFETCH(Server, server);
    const auto owner = storeFor(server);
    const QString key = uniqueKey("KEYED");
    QVERIFY(owner->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
    for (const QByteArray &presented : {QByteArray(), QByteArrayLiteral("wrong-key-wrong-key-wrong-key")}) {
        const auto stranger = storeFor(server, presented);
        QVERIFY(stranger->row(key).ok()); // reads are open (SPEC §10 keys the mutating calls)
        const StoreError refused = stranger->patch(key, {{u"seq"_s, 9}}).error();
        QCOMPARE(refused.kind, StoreError::Kind::Unauthorized);
        QCOMPARE(refused.message, presented.isEmpty() ? u"the server wants an owner key and none was given"_s
                                                      : u"the server refused the owner key"_s);
        QCOMPARE(stranger->remove(key).kind, StoreError::Kind::Unauthorized);
        Row edited = owner->row(key).value();
        edited.seq = 9;
        QCOMPARE(stranger->replace(edited, edited.updatedAt).error().kind, StoreError::Kind::Unauthorized);
        QCOMPARE(stranger->put(edited).error().kind, StoreError::Kind::Unauthorized);
        const ConnectionCheck check = stranger->connection()->check();
        QVERIFY(!check.ok);
        QVERIFY2(check.message.contains(presented.isEmpty() ? u"none is set"_s : u"refused the owner key"_s),
                 qPrintable(check.message));
    }
    QVERIFY(owner->row(key).value().seq != std::optional<qint64>(9));
}

void TestRemoteStoreFailures::serverDownIsUnreachableAtOnce()
{
    const RefusingPort probe; // nothing listens there, and nothing else can while it is held
    QVERIFY(probe.port() != 0);
    const QUrl url(u"http://127.0.0.1:%1"_s.arg(probe.port()));
    RemoteDirectoryStore store(
        std::make_shared<ServerConnection>(ServerEndpoint{url, QString::fromLatin1(kOwnerKey)}));
    QElapsedTimer clock;
    clock.start();
    const StoreResult<Row> row = store.row(u"ZZ_ANY"_s);
    QVERIFY(clock.elapsed() < 2000);
    QCOMPARE(row.error().kind, StoreError::Kind::Unreachable);
    QCOMPARE(row.error().message, u"server %1 did not answer: connection refused"_s.arg(url.toString()));
    QCOMPARE(store.scanSummaries([](const RowSummary &) {}).kind, StoreError::Kind::Unreachable);
    QCOMPARE(store.create(documentedRow(u"ZZ_DOWN"_s, u"fn"_s, u"echo"_s)).error().kind,
             StoreError::Kind::Unreachable);
}

void TestRemoteStoreFailures::silentServerTimesOut()
{
    // Accepts the connection and never answers.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    const QUrl url(u"http://127.0.0.1:%1"_s.arg(silent.serverPort()));
    auto connection =
        std::make_shared<ServerConnection>(ServerEndpoint{url, QString::fromLatin1(kOwnerKey), 300});
    QList<ServerResponse> reported;
    connect(connection.get(), &ServerConnection::requestFinished, this,
            [&reported](const ServerResponse &response) { reported.append(response); });
    RemoteDirectoryStore store(connection);
    QElapsedTimer clock;
    clock.start();
    const StoreError error = store.remove(u"ZZ_ANY"_s);
    QVERIFY(clock.elapsed() >= 300 && clock.elapsed() < 3000);
    QCOMPARE(error.kind, StoreError::Kind::Unreachable);
    QCOMPARE(error.message, u"server %1 did not answer: timed out after 300 ms"_s.arg(url.toString()));
    QTRY_COMPARE(reported.size(), 1);
    QCOMPARE(reported.first().method, QByteArray("DELETE"));
    QVERIFY(!reported.first().reached());
}

void TestRemoteStoreFailures::killedServerComesBack()
{
    const auto store = storeFor(Server::Ours);
    const QString key = uniqueKey("CRASH");
    QVERIFY(store->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
    Row edited = store->row(key).value();
    edited.seq = 11;
    m_serve.kill();
    const StoreResult<WriteOutcome> failed = store->replace(edited, edited.updatedAt);
    QCOMPARE(failed.error().kind, StoreError::Kind::Unreachable);
    QString error;
    QVERIFY2(m_serve.restart(&error), qPrintable(error));
    const StoreResult<WriteOutcome> retried = store->replace(edited, edited.updatedAt);
    QVERIFY2(retried.ok(), qPrintable(retried.error().message));
    QCOMPARE(store->row(key).value().seq, std::optional<qint64>(11));
}

void TestRemoteStoreFailures::connectionCheck()
{
    for (Server server : {Server::Ours, Server::Minimal}) {
        const ConnectionCheck check = storeFor(server)->connection()->check();
        QVERIFY2(check.ok, qPrintable(check.message));
        QVERIFY(check.rows >= 0);
        QVERIFY(check.message.startsWith(u"connected: owner key accepted"_s));
        QVERIFY(storeFor(server)->connection()->ping().status == 200);
    }
    const ConnectionCheck down =
        std::make_shared<ServerConnection>(ServerEndpoint{QUrl(u"http://127.0.0.1:1"_s), {}})->check();
    QVERIFY(!down.ok);
    QVERIFY(down.message.contains(u"did not answer"_s));
}

void TestRemoteStoreFailures::ownerKeyNeverInUrls()
{
    const auto store = storeFor(Server::Minimal);
    m_minimal.clearRequests();
    const QString key = uniqueKey("SECRETS");
    QVERIFY(store->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
    QVERIFY(store->row(key).ok());
    QVERIFY(store->remove(key, store->row(key).value().updatedAt).kind == StoreError::Kind::None);
    QVERIFY(!m_minimal.requests().isEmpty());
    for (const MinimalServer::Request &request : m_minimal.requests()) {
        QVERIFY(!request.pathAndQuery.contains(QString::fromLatin1(kOwnerKey)));
        QVERIFY(!request.body.contains(kOwnerKey));
        for (const auto &[name, value] : request.headers)
            QVERIFY2(!value.contains(kOwnerKey), name.constData());
    }
    QVERIFY(m_minimal.requests("POST").first().hadOwnerKey);
    const QString location = store->location();
    QVERIFY(!location.contains(QString::fromLatin1(kOwnerKey)));
}

void TestRemoteStoreFailures::oversizedAnswersAreNamedErrors_data()
{
    QTest::addColumn<QByteArray>("mode");
    // No body follows the headers: a refusal that waited for the body would time out instead.
    QTest::addRow("declared over 64 MiB: refused at the headers") << QByteArray("announce");
    QTest::addRow("sent over 64 MiB without a length: refused at the cap") << QByteArray("stream");
}

void TestRemoteStoreFailures::oversizedAnswersAreNamedErrors()
{
    QFETCH(QByteArray, mode);
    OversizedAnswerServer server(mode);
    QVERIFY(server.listen(QHostAddress::LocalHost, 0));
    const QUrl url(u"http://127.0.0.1:%1"_s.arg(server.serverPort()));
    // The default leaves room for every full row of a 100,000-row directory; the test sets
    // a smaller cap so it need not stream half a gigabyte.
    QVERIFY(ServerEndpoint{}.maxAnswerBytes >= 100000 * 800);
    RemoteDirectoryStore store(
        std::make_shared<ServerConnection>(ServerEndpoint{url, {}, 10000, {}, 64 * 1024 * 1024}));
    QCOMPARE(store.connection()->endpoint().maxAnswerBytes, 64 * 1024 * 1024);
    // The store blocks its caller; this thread serves the answer meanwhile.
    QFuture<StoreError> scan =
        QtConcurrent::run([&store] { return store.scanSummaries([](const RowSummary &) {}); });
    QTRY_VERIFY_WITH_TIMEOUT(scan.isFinished(), 20000);
    const StoreError error = scan.result();
    QCOMPARE(error.kind, StoreError::Kind::Io);
    QCOMPARE(error.message,
             u"server %1 sent too much for GET /api/directory?fields=summary&limit=%2: the body "
             u"is larger than 64 MiB"_s.arg(url.toString())
                 .arg(RemoteDirectoryStore::kPageRows));
}

void TestRemoteStoreFailures::https_data()
{
    QTest::addColumn<TestCertificates::Server>("certificate");
    QTest::addColumn<bool>("withCaFile");
    QTest::addColumn<QString>("refusal"); // empty: trusted
    using Certificate = TestCertificates::Server;
    QTest::addRow("the profile's CA file trusts it") << Certificate::Loopback << true << QString();
    QTest::addRow("without the CA file: not trusted")
        << Certificate::Loopback << false << u"did not answer: certificate for 127.0.0.1 is not trusted: "_s;
    QTest::addRow("a certificate for another name")
        << Certificate::OtherHost << true
        << u"did not answer: certificate for 127.0.0.1 names another host: "_s
               + QSslError(QSslError::HostNameMismatch).errorString();
}

// capdeskctl serve --tls-cert --tls-key, read and written through the store over https.
void TestRemoteStoreFailures::https()
{
    QFETCH(TestCertificates::Server, certificate);
    QFETCH(bool, withCaFile);
    QFETCH(QString, refusal);
    TestCertificates certificates;
    QString error;
    QVERIFY2(certificates.create(&error), qPrintable(error));
    const QString db = m_dir.filePath(u"https-%1.db"_s.arg(QLatin1String(QTest::currentDataTag())));
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {u"init"_s, u"--db"_s, db}).exitCode, 0);
    ServeProcess served;
    served.setTls(certificates.certificateFile(certificate), certificates.keyFile(certificate));
    QVERIFY2(served.start(db, kOwnerKey, &error), qPrintable(error));
    ServerEndpoint endpoint{served.baseUrl(), QString::fromLatin1(kOwnerKey)};
    endpoint.caFile = withCaFile ? certificates.caFile() : QString();
    RemoteDirectoryStore store(std::make_shared<ServerConnection>(endpoint));

    const QString key = uniqueKey("TLS");
    const StoreResult<WriteOutcome> created = store.create(documentedRow(key, u"fn"_s, u"echo"_s));
    if (!refusal.isEmpty()) {
        QCOMPARE(created.error().kind, StoreError::Kind::Unreachable);
        QVERIFY2(created.error().message.startsWith(u"server %1 "_s.arg(served.baseUrl().toString())),
                 qPrintable(created.error().message));
        QVERIFY2(created.error().message.contains(refusal), qPrintable(created.error().message));
        QVERIFY(!store.connection()->check().ok);
        QVERIFY(!served.standardError().contains("/api/directory")); // nothing was sent
        return;
    }
    QVERIFY2(created.ok(), qPrintable(created.error().message));
    QStringList listed;
    QVERIFY(!store.scanSummaries([&](const RowSummary &summary) { listed.append(summary.key); }).isError());
    QVERIFY(listed.contains(key));
    const StoreResult<WriteOutcome> patched = store.patch(key, {{u"seq"_s, 5}});
    QVERIFY2(patched.ok(), qPrintable(patched.error().message));
    QCOMPARE(store.row(key).value().seq, std::optional<qint64>(5));
    QVERIFY(served.standardError().contains("PATCH /api/directory/" + key.toUtf8() + " 200"));
}

void TestRemoteStoreFailures::keysNoRowCanHaveSendNothing()
{
    const auto store = storeFor(Server::Minimal);
    const qsizetype before = m_minimal.requests().size();
    for (const QString &key : {QString(), u"lower"_s, u"A/B"_s}) {
        QCOMPARE(store->row(key).error().kind, StoreError::Kind::NotFound);
        QCOMPARE(store->patch(key, {{u"category"_s, u"x"_s}}).error().kind, StoreError::Kind::NotFound);
        QCOMPARE(store->remove(key).kind, StoreError::Kind::NotFound);
        const StoreResult<WriteOutcome> created = store->create(documentedRow(key, u"fn"_s, u"echo"_s));
        QCOMPARE(created.error().kind, StoreError::Kind::Invalid);
        QVERIFY2(created.error().message.contains(u"must match"_s), qPrintable(created.error().message));
        QCOMPARE(store->put(documentedRow(key, u"fn"_s, u"echo"_s)).error().kind, StoreError::Kind::Invalid);
    }
    QCOMPARE(m_minimal.requests().size(), before);
}

QTEST_MAIN(TestRemoteStoreFailures)
#include "tst_remotestorefailures.moc"
