#include "tests/support/latencyproxy.h"
#include "tests/support/minimalserver.h"

#include <QElapsedTimer>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Answer
{
    int status = 0;
    QByteArray body;
};

Answer exchange(QNetworkAccessManager &manager, const QNetworkRequest &request, const QByteArray &method,
                const QByteArray &body = {})
{
    std::unique_ptr<QNetworkReply> reply(manager.sendCustomRequest(request, method, body));
    if (!QTest::qWaitFor([&] { return reply->isFinished(); }, 30000))
        return {};
    return {reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll()};
}

// The headers and as many body bytes as Content-Length says.
bool isWholeAnswer(const QByteArray &answer)
{
    const qsizetype end = answer.indexOf("\r\n\r\n");
    if (end < 0)
        return false;
    const QByteArray head = answer.left(end).toLower();
    const qsizetype at = head.indexOf("content-length:");
    if (at < 0)
        return false;
    qsizetype lineEnd = head.indexOf("\r\n", at);
    if (lineEnd < 0)
        lineEnd = head.size();
    const qsizetype length = head.mid(at + 15, lineEnd - at - 15).trimmed().toLongLong();
    return answer.size() >= end + 4 + length;
}

} // namespace

// The proxy the remote-mode tests put between the app and a server: each exchange costs
// a round trip, also on one keep-alive connection; bytes pass unchanged; a close
// travels; it forwards while the test's own thread is blocked.
class TestLatencyProxy : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void eachRequestOnOneConnectionCostsARoundTrip_data();
    void eachRequestOnOneConnectionCostsARoundTrip();
    void forwardsBytesUnchanged();
    void closingEitherSideClosesTheOther_data();
    void closingEitherSideClosesTheOther();
    void forwardsWhileTheTestThreadBlocks();

private:
    QUrl httpUrl() const { return QUrl(u"http://127.0.0.1:%1"_s.arg(m_httpPort)); }

    QHttpServer m_http;
    quint16 m_httpPort = 0;
};

void TestLatencyProxy::initTestCase()
{
    m_http.route(u"/ping"_s, [] { return QHttpServerResponse("text/plain", QByteArrayLiteral("pong")); });
    m_http.route(u"/echo"_s, [](const QHttpServerRequest &request) {
        return QHttpServerResponse("application/octet-stream", request.body());
    });
    m_httpPort = m_http.listen(QHostAddress::LocalHost, 0);
    QVERIFY(m_httpPort != 0);
}

void TestLatencyProxy::eachRequestOnOneConnectionCostsARoundTrip_data()
{
    QTest::addColumn<int>("roundTripMs");
    QTest::addColumn<int>("requests");
    QTest::addRow("100 ms, 6 requests") << 100 << 6;
    QTest::addRow("300 ms, 4 requests") << 300 << 4;
}

void TestLatencyProxy::eachRequestOnOneConnectionCostsARoundTrip()
{
    QFETCH(int, roundTripMs);
    QFETCH(int, requests);
    LatencyProxy proxy(httpUrl(), roundTripMs);
    QString error;
    QVERIFY2(proxy.listen(&error), qPrintable(error));
    QNetworkAccessManager manager;
    QNetworkRequest request(proxy.url().resolved(QUrl(u"/ping"_s)));

    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < requests; ++i) {
        const Answer answer = exchange(manager, request, "GET");
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.body, QByteArrayLiteral("pong"));
    }
    const qint64 elapsed = clock.elapsed();

    QCOMPARE(proxy.connectionsAccepted(), 1); // keep-alive: the delay is per request, not per connection
    const qint64 floor = qint64(requests) * roundTripMs;
    const qint64 slack = 60 * requests + 150;
    QVERIFY2(elapsed >= floor,
             qPrintable(u"%1 ms for %2 round trips of %3 ms"_s.arg(elapsed).arg(requests).arg(roundTripMs)));
    QVERIFY2(elapsed < floor + slack,
             qPrintable(u"%1 ms, more than %2 + %3 ms"_s.arg(elapsed).arg(floor).arg(slack)));
}

void TestLatencyProxy::forwardsBytesUnchanged()
{
    // A plain TCP echo, so nothing but the proxy stands between the bytes sent and received.
    QTcpServer echo;
    QVERIFY(echo.listen(QHostAddress::LocalHost, 0));
    connect(&echo, &QTcpServer::newConnection, this, [&echo] {
        QTcpSocket *accepted = echo.nextPendingConnection();
        connect(accepted, &QTcpSocket::readyRead, accepted,
                [accepted] { accepted->write(accepted->readAll()); });
    });
    LatencyProxy proxy(u"127.0.0.1"_s, echo.serverPort());
    QString error;
    QVERIFY2(proxy.listen(&error), qPrintable(error));
    QByteArray body(5 * 1024 * 1024, Qt::Uninitialized);
    QRandomGenerator generator(12);
    generator.fillRange(reinterpret_cast<quint32 *>(body.data()), body.size() / 4);

    QTcpSocket client;
    QByteArray received;
    connect(&client, &QTcpSocket::readyRead, this, [&] { received += client.readAll(); });
    client.connectToHost(QHostAddress::LocalHost, proxy.port());
    client.write(body);
    QTRY_COMPARE_WITH_TIMEOUT(received.size(), body.size(), 30000);

    QVERIFY(received == body);
    QCOMPARE(proxy.bytesFromClients(), body.size());
    QCOMPARE(proxy.bytesFromServer(), body.size());
}

void TestLatencyProxy::closingEitherSideClosesTheOther_data()
{
    QTest::addColumn<bool>("clientCloses");
    QTest::addRow("the client closes") << true;
    QTest::addRow("the server closes") << false;
}

void TestLatencyProxy::closingEitherSideClosesTheOther()
{
    QFETCH(bool, clientCloses);
    QTcpServer target;
    QVERIFY(target.listen(QHostAddress::LocalHost, 0));
    LatencyProxy proxy(u"127.0.0.1"_s, target.serverPort(), 100);
    QString error;
    QVERIFY2(proxy.listen(&error), qPrintable(error));
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, proxy.port());
    QTRY_VERIFY(target.hasPendingConnections());
    std::unique_ptr<QTcpSocket> server(target.nextPendingConnection());
    QTRY_COMPARE(client.state(), QAbstractSocket::ConnectedState);

    QTcpSocket &closer = clientCloses ? client : *server;
    QTcpSocket &other = clientCloses ? *server : client;
    QSignalSpy otherClosed(&other, &QTcpSocket::disconnected);
    QByteArray received;
    connect(&other, &QTcpSocket::readyRead, this, [&] { received += other.readAll(); });
    closer.write("last words");
    closer.disconnectFromHost();

    QVERIFY(otherClosed.wait(5000));
    received += other.readAll();
    QCOMPARE(received, QByteArrayLiteral("last words")); // what was on its way arrives first
    QTRY_COMPARE(proxy.connectionsOpen(), 0);
}

void TestLatencyProxy::forwardsWhileTheTestThreadBlocks()
{
    MinimalServer minimal(QByteArrayLiteral("latency-proxy-test-key"));
    QString error;
    QVERIFY2(minimal.listen(&error), qPrintable(error));
    LatencyProxy proxy(minimal.baseUrl(), 200);
    QVERIFY2(proxy.listen(&error), qPrintable(error));

    // Blocking calls only: were the proxy to need this thread, nothing would arrive.
    QElapsedTimer clock;
    clock.start();
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, proxy.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write("GET /api/directory HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    QVERIFY(socket.waitForBytesWritten(5000));
    QByteArray answer;
    while (!isWholeAnswer(answer) && socket.waitForReadyRead(5000))
        answer += socket.readAll();

    QVERIFY2(answer.startsWith("HTTP/1.1 200"), answer.left(200).constData());
    QVERIFY2(answer.contains("\"rows\""), answer.left(200).constData());
    QVERIFY(clock.elapsed() >= 200);
}

QTEST_GUILESS_MAIN(TestLatencyProxy)
#include "tst_latencyproxy.moc"
