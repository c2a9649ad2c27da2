#include "dispatch/runners/httptransport.h"
#include "tests/support/testcertificates.h"

#include <QElapsedTimer>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QSslServer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <optional>

using namespace Qt::StringLiterals;

using Failure = TransportResponse::Failure;
using Server = TestCertificates::Server;

Q_DECLARE_METATYPE(TransportRequest::OverLimit)
Q_DECLARE_METATYPE(TransportRequest::Redirects)
Q_DECLARE_METATYPE(TransportResponse::Failure)
Q_DECLARE_METATYPE(TestCertificates::Server)

namespace {

// Answers by hand, as no QHttpServer would: "/length/N" sends N bytes with their
// Content-Length, "/announce/N" only announces N bytes and then sends nothing,
// "/chunked/N" sends N bytes chunked, without a length, "/close" closes the connection
// without a word, "/cut/N" announces N bytes, sends half of them and closes, and
// "/chunked-cut/N" and "/chunked-half/N" send one chunk of N bytes, whole or half, and
// close before the last chunk.
class HandWrittenServer final : public QTcpServer
{
public:
    HandWrittenServer()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection())
                connect(socket, &QTcpSocket::readyRead, socket, [socket] { answer(socket); });
        });
    }

private:
    static void answer(QTcpSocket *socket)
    {
        const QByteArray request = socket->readAll();
        const QList<QByteArray> path = request.left(request.indexOf(' ', 4)).mid(4).split('/');
        const QByteArray mode = path.value(1);
        const qsizetype size = path.value(2).toLongLong();
        if (mode == "close") {
            socket->disconnectFromHost();
            return;
        }
        QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n";
        if (mode == "cut") {
            socket->write(head + "Content-Length: " + QByteArray::number(size) + "\r\n\r\n"
                          + QByteArray(size / 2, 'x'));
            socket->disconnectFromHost();
            return;
        }
        if (mode == "chunked-cut" || mode == "chunked-half") {
            const bool whole = mode == "chunked-cut";
            socket->write(head + "Transfer-Encoding: chunked\r\n\r\n" + QByteArray::number(size, 16) + "\r\n"
                          + QByteArray(whole ? size : size / 2, 'x') + (whole ? "\r\n" : ""));
            socket->disconnectFromHost();
            return;
        }
        if (mode == "chunked") {
            socket->write(head + "Transfer-Encoding: chunked\r\n\r\n" + QByteArray::number(size, 16) + "\r\n"
                          + QByteArray(size, 'x') + "\r\n0\r\n\r\n");
            return;
        }
        head += "Content-Length: " + QByteArray::number(size) + "\r\n\r\n";
        socket->write(mode == "announce" ? head : head + QByteArray(size, 'x'));
    }
};

} // namespace

// HttpTransport against real servers on 127.0.0.1: the whole-exchange deadline, the body
// cap (cut and flagged, or refused by name, early when the length is declared), the
// redirect policy per request, cancellation, closeAll(), and TLS: verified peers, named
// refusals, and a CA file that adds to the system roots.
class TestHttpTransport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void deadlineCoversTheWholeExchange_data();
    void deadlineCoversTheWholeExchange();
    void serverClosingTheConnectionIsNamed_data();
    void serverClosingTheConnectionIsNamed();
    void bodyCap_data();
    void bodyCap();
    void redirects_data();
    void redirects();
    void cancellation();
    void closeAllAnswersEveryRequest();
    void tls_data();
    void tls();
    void keptConnectionsDoNotCarryTrust();
    void caFileAddsToTheSystemRoots();
    void unusableCaFileSendsNothing_data();
    void unusableCaFileSendsNothing();

private:
    TransportResponse sendAndWait(const TransportRequest &request);
    // One request to m_plain through m_transport, answered: what was queued before it has run.
    bool roundTrip();
    QString plain(const QString &path) const { return u"http://127.0.0.1:%1%2"_s.arg(m_plainPort).arg(path); }

    TestCertificates m_certificates;
    HttpTransport m_transport;
    QHttpServer m_plain;
    quint16 m_plainPort = 0;
    QHttpServer m_otherOrigin;
    quint16 m_otherPort = 0;
    int m_otherRequests = 0;
    HandWrittenServer m_handWritten;
    QMap<Server, quint16> m_tlsPorts;
    QHttpServer m_tlsServers[3];
    int m_tlsRequests = 0;
};

void TestHttpTransport::initTestCase()
{
    QString error;
    QVERIFY2(m_certificates.create(&error), qPrintable(error));
    m_plain.route(u"/echo"_s, [] { return QHttpServerResponse(QByteArrayLiteral("text/plain"), "echo"); });
    m_plain.route(u"/hop"_s, [this] {
        QHttpServerResponse response(QHttpServerResponder::StatusCode::Found);
        response.setHeader(QByteArrayLiteral("Location"), plain(u"/echo"_s).toUtf8());
        return response;
    });
    m_plain.route(u"/away"_s, [this] {
        QHttpServerResponse response(QHttpServerResponder::StatusCode::Found);
        response.setHeader(QByteArrayLiteral("Location"),
                           u"http://127.0.0.1:%1/"_s.arg(m_otherPort).toUtf8());
        return response;
    });
    m_otherOrigin.route(u"/"_s, [this] {
        ++m_otherRequests;
        return QHttpServerResponse(QByteArrayLiteral("text/plain"), "other origin");
    });
    m_plainPort = m_plain.listen(QHostAddress::LocalHost, 0);
    m_otherPort = m_otherOrigin.listen(QHostAddress::LocalHost, 0);
    QVERIFY(m_plainPort != 0 && m_otherPort != 0);
    QVERIFY(m_handWritten.listen(QHostAddress::LocalHost, 0));

    const Server kinds[] = {Server::Loopback, Server::OtherHost, Server::Expired};
    for (int i = 0; i < 3; ++i) {
        auto *listener = new QSslServer;
        listener->setSslConfiguration(m_certificates.serverConfiguration(kinds[i]));
        QVERIFY(listener->listen(QHostAddress::LocalHost, 0));
        m_tlsPorts.insert(kinds[i], listener->serverPort());
        m_tlsServers[i].bind(listener);
        m_tlsServers[i].route(u"/hello"_s, [this] {
            ++m_tlsRequests;
            return QHttpServerResponse(QByteArrayLiteral("text/plain"), "hello over TLS");
        });
    }
}

TransportResponse TestHttpTransport::sendAndWait(const TransportRequest &request)
{
    std::optional<TransportResponse> answer;
    int calls = 0;
    m_transport.send(request, [&](const TransportResponse &response) {
        ++calls;
        answer = response;
    });
    if (!QTest::qWaitFor([&] { return answer.has_value(); }, 20000)) {
        TransportResponse never;
        never.error = u"test: done was never called"_s;
        return never;
    }
    // done runs exactly once, also when late events arrive: whatever the finished exchange
    // still had queued (its reply's signals, its timers, its deferred deletes) runs on this
    // thread before a later request's whole round trip through the same transport is over.
    if (!roundTrip())
        answer->error = u"test: the follow-up request was not answered"_s;
    else if (calls != 1)
        answer->error = u"test: done ran %1 times"_s.arg(calls);
    return *answer;
}

bool TestHttpTransport::roundTrip()
{
    TransportRequest request;
    request.url = QUrl(plain(u"/echo"_s));
    std::optional<TransportResponse> echo;
    m_transport.send(request, [&echo](const TransportResponse &response) { echo = response; });
    return QTest::qWaitFor([&] { return echo.has_value(); }, 20000) && echo->body == "echo";
}

void TestHttpTransport::deadlineCoversTheWholeExchange_data()
{
    QTest::addColumn<QString>("path"); // empty: a server that accepts and never answers
    QTest::addRow("no answer at all") << QString();
    // The headers arrive in time; the deadline is for the whole exchange, not the first byte.
    QTest::addRow("headers, then no body") << u"/announce/10"_s;
}

void TestHttpTransport::deadlineCoversTheWholeExchange()
{
    QFETCH(QString, path);
    QTcpServer silent; // accepts and never answers
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    TransportRequest request;
    request.url = QUrl(path.isEmpty() ? u"http://127.0.0.1:%1/"_s.arg(silent.serverPort())
                                      : u"http://127.0.0.1:%1%2"_s.arg(m_handWritten.serverPort()).arg(path));
    request.timeoutMs = 300;
    QElapsedTimer clock;
    clock.start();
    const TransportResponse response = sendAndWait(request);
    QCOMPARE(response.failure, Failure::TimedOut);
    QCOMPARE(response.error, u"timed out after 300 ms"_s);
    QCOMPARE(response.status, 0);
    QVERIFY(clock.elapsed() >= 300 && clock.elapsed() < 5000);
    QVERIFY(response.elapsedMs >= 300);
    QVERIFY(response.body.isEmpty());
}

void TestHttpTransport::serverClosingTheConnectionIsNamed_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("error");
    QTest::addRow("before answering")
        << u"/close"_s << u"the server closed the connection without answering"_s;
    QTest::addRow("mid-body") << u"/cut/1000"_s
                              << u"the server closed the connection after 500 of 1000 bytes"_s;
    QTest::addRow("chunked, before the last chunk")
        << u"/chunked-cut/1000"_s
        << u"the server closed the connection after 1000 bytes, before the last chunk"_s;
    QTest::addRow("chunked, mid-chunk")
        << u"/chunked-half/1000"_s
        << u"the server closed the connection after 500 bytes, before the last chunk"_s;
}

// A connection the server drops ends the request at once, with a failure in words, and
// never as an answer: a body cut short is not a body.
void TestHttpTransport::serverClosingTheConnectionIsNamed()
{
    QFETCH(QString, path);
    QFETCH(QString, error);
    TransportRequest request;
    request.url = QUrl(u"http://127.0.0.1:%1%2"_s.arg(m_handWritten.serverPort()).arg(path));
    request.timeoutMs = 10000;
    QElapsedTimer clock;
    clock.start();
    const TransportResponse response = sendAndWait(request);
    QVERIFY2(!response.ok(), qPrintable(u"%1 of 1000 bytes"_s.arg(response.body.size())));
    QCOMPARE(response.failure, Failure::Network);
    QCOMPARE(response.error, error);
    QVERIFY(response.body.isEmpty());
    QVERIFY2(clock.elapsed() < 5000, "the close was noticed only at the deadline");
}

void TestHttpTransport::bodyCap_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<TransportRequest::OverLimit>("overLimit");
    QTest::addColumn<Failure>("failure");
    QTest::addColumn<int>("bodyBytes");
    QTest::addColumn<bool>("truncated");

    using OverLimit = TransportRequest::OverLimit;
    QTest::addRow("at the cap: read whole")
        << u"/length/1000"_s << OverLimit::Fail << Failure::None << 1000 << false;
    QTest::addRow("chunked at the cap: read whole")
        << u"/chunked/1000"_s << OverLimit::Fail << Failure::None << 1000 << false;
    // Only the headers ever arrive: a refusal that waited for the body would time out.
    QTest::addRow("declared over the cap: refused at the headers")
        << u"/announce/1001"_s << OverLimit::Fail << Failure::BodyTooLarge << 0 << false;
    QTest::addRow("sent over the cap: refused")
        << u"/length/1001"_s << OverLimit::Fail << Failure::BodyTooLarge << 0 << false;
    QTest::addRow("chunked over the cap: refused")
        << u"/chunked/1001"_s << OverLimit::Fail << Failure::BodyTooLarge << 0 << false;
    QTest::addRow("sent over the cap: cut and flagged")
        << u"/length/1001"_s << OverLimit::Truncate << Failure::None << 1000 << true;
    QTest::addRow("chunked over the cap: cut and flagged")
        << u"/chunked/5000"_s << OverLimit::Truncate << Failure::None << 1000 << true;
}

void TestHttpTransport::bodyCap()
{
    QFETCH(QString, path);
    QFETCH(TransportRequest::OverLimit, overLimit);
    QFETCH(Failure, failure);
    TransportRequest request;
    request.url = QUrl(u"http://127.0.0.1:%1%2"_s.arg(m_handWritten.serverPort()).arg(path));
    request.maxBodyBytes = 1000;
    request.overLimit = overLimit;
    request.timeoutMs = 5000;
    const TransportResponse response = sendAndWait(request);
    QCOMPARE(response.failure, failure);
    QCOMPARE(response.status, 200);
    QTEST(int(response.body.size()), "bodyBytes");
    QTEST(response.truncated, "truncated");
    QCOMPARE(response.error, failure == Failure::None ? QString() : u"the body is larger than 1000 bytes"_s);
}

void TestHttpTransport::redirects_data()
{
    QTest::addColumn<TransportRequest::Redirects>("redirects");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");

    using Redirects = TransportRequest::Redirects;
    QTest::addRow("same origin, followed") << Redirects::SameOrigin << u"/hop"_s << 200 << QByteArray("echo");
    QTest::addRow("another origin, not followed")
        << Redirects::SameOrigin << u"/away"_s << 302 << QByteArray();
    QTest::addRow("none: same origin is the answer") << Redirects::None << u"/hop"_s << 302 << QByteArray();
    QTest::addRow("none: another origin is the answer")
        << Redirects::None << u"/away"_s << 302 << QByteArray();
}

void TestHttpTransport::redirects()
{
    QFETCH(TransportRequest::Redirects, redirects);
    QFETCH(QString, path);
    m_otherRequests = 0;
    TransportRequest request;
    request.url = QUrl(plain(path));
    request.redirects = redirects;
    request.headers = {{QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer s3cr3t")}};
    const TransportResponse response = sendAndWait(request);
    QVERIFY2(response.ok(), qPrintable(response.error));
    QTEST(response.status, "status");
    QTEST(response.body, "body");
    QCOMPARE(m_otherRequests, 0);
}

void TestHttpTransport::cancellation()
{
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    TransportRequest request;
    request.url = QUrl(u"http://127.0.0.1:%1/"_s.arg(silent.serverPort()));
    request.cancelled = std::make_shared<std::atomic_bool>(false);
    QTimer::singleShot(100, this, [flag = request.cancelled] { flag->store(true); });
    const TransportResponse response = sendAndWait(request);
    QCOMPARE(response.failure, Failure::Cancelled);
    QCOMPARE(response.error, u"cancelled"_s);
}

void TestHttpTransport::closeAllAnswersEveryRequest()
{
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    TransportRequest request;
    request.url = QUrl(u"http://127.0.0.1:%1/"_s.arg(silent.serverPort()));
    QList<TransportResponse> answers;
    int connected = 0;
    connect(&silent, &QTcpServer::newConnection, this, [&] { ++connected; });
    for (int i = 0; i < 2; ++i)
        m_transport.send(request, [&](const TransportResponse &response) { answers.append(response); });
    // Both requests are on the wire, so closeAll() ends requests that are really running.
    QTRY_COMPARE(connected, 2);
    m_transport.closeAll(u"the connection was closed"_s);
    QCOMPARE(answers.size(), 2); // before closeAll() returned
    for (const TransportResponse &answer : std::as_const(answers)) {
        QCOMPARE(answer.failure, Failure::Closed);
        QCOMPARE(answer.error, u"the connection was closed"_s);
    }
    // No second answer: a later request's round trip lets anything still queued run first.
    QVERIFY(roundTrip());
    QCOMPARE(answers.size(), 2);
}

void TestHttpTransport::tls_data()
{
    QTest::addColumn<Server>("server");
    QTest::addColumn<bool>("withCaFile");
    QTest::addColumn<Failure>("failure");
    QTest::addColumn<QString>("error"); // the start of the named error
    QTest::addColumn<QString>("qtWords"); // what Qt says of the refusal, contained in it

    QTest::addRow("trusted through the CA file")
        << Server::Loopback << true << Failure::None << QString() << QString();
    QTest::addRow("without the CA file: not trusted")
        << Server::Loopback << false << Failure::Certificate
        << u"certificate for 127.0.0.1 is not trusted: "_s
        << QSslError(QSslError::UnableToGetLocalIssuerCertificate).errorString();
    QTest::addRow("a certificate for another name") << Server::OtherHost << true << Failure::Certificate
                                                    << u"certificate for 127.0.0.1 names another host: "_s
                                                    << QSslError(QSslError::HostNameMismatch).errorString();
    QTest::addRow("an expired certificate")
        << Server::Expired << true << Failure::Certificate << u"certificate for 127.0.0.1 is not trusted: "_s
        << QSslError(QSslError::CertificateExpired).errorString();
}

void TestHttpTransport::tls()
{
    QFETCH(Server, server);
    QFETCH(bool, withCaFile);
    QFETCH(Failure, failure);
    QFETCH(QString, error);
    QFETCH(QString, qtWords);
    m_tlsRequests = 0;
    TransportRequest request;
    request.url = QUrl(u"https://127.0.0.1:%1/hello"_s.arg(m_tlsPorts.value(server)));
    request.caFile = withCaFile ? m_certificates.caFile() : QString();
    const TransportResponse response = sendAndWait(request);
    QCOMPARE(response.failure, failure);
    QVERIFY2(response.error.startsWith(error), qPrintable(response.error));
    QVERIFY2(response.error.contains(qtWords), qPrintable(response.error));
    if (failure == Failure::None) {
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, QByteArray("hello over TLS"));
        QCOMPARE(m_tlsRequests, 1);
    } else {
        QCOMPARE(response.status, 0);
        QCOMPARE(m_tlsRequests, 0); // the request never left the client
    }
}

void TestHttpTransport::keptConnectionsDoNotCarryTrust()
{
    TransportRequest request;
    request.url = QUrl(u"https://127.0.0.1:%1/hello"_s.arg(m_tlsPorts.value(Server::Loopback)));
    request.caFile = m_certificates.caFile();
    QCOMPARE(sendAndWait(request).status, 200);
    // The connection just verified against the CA file is still open: it must not be used.
    request.caFile.clear();
    QCOMPARE(sendAndWait(request).failure, Failure::Certificate);
    request.caFile = m_certificates.caFile();
    QCOMPARE(sendAndWait(request).status, 200);
}

void TestHttpTransport::caFileAddsToTheSystemRoots()
{
    QString error;
    const std::optional<QSslConfiguration> system = m_transport.tlsConfiguration(QString(), &error);
    QVERIFY(system);
    QCOMPARE(system->peerVerifyMode(), QSslSocket::VerifyPeer);
    const std::optional<QSslConfiguration> extended =
        m_transport.tlsConfiguration(m_certificates.caFile(), &error);
    QVERIFY2(extended, qPrintable(error));
    QCOMPARE(extended->peerVerifyMode(), QSslSocket::VerifyPeer);
    const QList<QSslCertificate> roots = QSslConfiguration::systemCaCertificates();
    QCOMPARE(extended->caCertificates().size(), roots.size() + 1);
    for (const QSslCertificate &root : roots)
        QVERIFY(extended->caCertificates().contains(root));
    QVERIFY(extended->caCertificates().contains(QSslCertificate::fromPath(m_certificates.caFile()).value(0)));
}

void TestHttpTransport::unusableCaFileSendsNothing_data()
{
    QTest::addColumn<QString>("caFile");
    QTest::addColumn<QString>("error");
    const QString missing = m_certificates.caFile() + u".missing"_s;
    QTest::addRow("missing") << missing
                             << u"CA file %1 cannot be read: No such file or directory"_s.arg(missing);
    QTest::addRow("not PEM") << m_certificates.notPemFile()
                             << u"CA file %1 holds no PEM certificate"_s.arg(m_certificates.notPemFile());
}

void TestHttpTransport::unusableCaFileSendsNothing()
{
    QFETCH(QString, caFile);
    m_tlsRequests = 0;
    TransportRequest request;
    request.url = QUrl(u"https://127.0.0.1:%1/hello"_s.arg(m_tlsPorts.value(Server::Loopback)));
    request.caFile = caFile;
    const TransportResponse response = sendAndWait(request);
    QCOMPARE(response.failure, Failure::CaFile);
    QTEST(response.error, "error");
    QCOMPARE(m_tlsRequests, 0);
}

QTEST_GUILESS_MAIN(TestHttpTransport)
#include "tst_httptransport.moc"
