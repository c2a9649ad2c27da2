#include "tests/support/processrun.h"
#include "tests/support/serveprocess.h"
#include "tests/support/testcertificates.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("tst-owner-key-3e9a7c51d08b24f6");

QByteArray rowJson(const QString &key, const QString &target, const QByteArray &padding = {})
{
    const QString content = QStringLiteral("# WHAT: A row for %1.\n# WHEN_TO_USE: a test needs it.\n"
                                           "# ARGS: $1=text\n# EX: [%1]hello[/%1]\n# OUTPUT: the text\n")
                                .arg(key)
                            + QString::fromLatin1(padding);
    return QJsonDocument(QJsonObject{{QStringLiteral("key"), key},
                                     {QStringLiteral("type"), QStringLiteral("fn")},
                                     {QStringLiteral("target"), target},
                                     {QStringLiteral("content"), content},
                                     {QStringLiteral("category"), QStringLiteral("tools")},
                                     {QStringLiteral("examples"), QStringLiteral("[\"hello\"]")}})
        .toJson(QJsonDocument::Compact);
}

QByteArray request(const QByteArray &method, const QByteArray &target, const QByteArray &body = {},
                   bool keyed = true)
{
    return method + ' ' + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
           + (keyed ? "x-terminal-key: " + kOwnerKey + "\r\n" : QByteArray())
           + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

// The peak resident memory of a process, from /proc.
qint64 peakResidentKiB(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

// A client socket of the kernel's own with a small receive window, that the test never
// reads from: Qt's socket would read everything into its own buffer.
class NonReadingClient
{
public:
    explicit NonReadingClient(quint16 port) : m_fd(::socket(AF_INET, SOCK_STREAM, 0))
    {
        const int small = 4096;
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        m_connected = ::connect(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
    }
    ~NonReadingClient() { ::close(m_fd); }
    Q_DISABLE_COPY_MOVE(NonReadingClient)

    bool connected() const { return m_connected; }
    bool send(const QByteArray &bytes) const
    {
        return ::send(m_fd, bytes.constData(), std::size_t(bytes.size()), MSG_NOSIGNAL) == bytes.size();
    }
    // Waits for the server to end the connection (a reset or a hang-up) without reading.
    bool waitForCut(int timeoutMs) const
    {
        pollfd watched{m_fd, 0, 0};
        return ::poll(&watched, 1, timeoutMs) == 1 && (watched.revents & (POLLERR | POLLHUP));
    }

private:
    int m_fd;
    bool m_connected = false;
};

} // namespace

// `capdeskctl serve` under hostile clients, over raw sockets: the pre-parser's refusals on
// the wire, the deadlines, the connection cap, the ordering of pipelined answers and the
// cap on what a client that never reads can make the server hold.
class TestRequestGate : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void malformedHeadsAreRefusedAndClosed_data();
    void malformedHeadsAreRefusedAndClosed();
    void keylessBodyIsRefusedBeforeItIsSent();
    void refusedTokenIsAnsweredBeforeTheBody_data();
    void refusedTokenIsAnsweredBeforeTheBody();
    void validTokenStillDispatches();
    void tricklingSenderIsCutAtTheDeadline();
    void connectionsOverTheCapAreRefused();
    void tlsHandshakesCountAgainstTheCaps_data();
    void tlsHandshakesCountAgainstTheCaps();
    void pipelinedAnswersKeepTheirOrder();
    void connectionCloseIsHonoured();
    void clientThatNeverReadsHoldsLittle();

private:
    bool startServe(ServeProcess *served, const QStringList &options);
    // `capdeskctl token create` for ZZ_SLOW, audience "tests"; the token's value and id.
    std::pair<QByteArray, QString> createToken();
    // What `served` logged since `from` bytes of its stderr.
    static QByteArray loggedSince(ServeProcess &served, qsizetype from)
    {
        return served.standardError().mid(from);
    }
    QTemporaryDir m_dir;
    QString m_db;
    ServeProcess m_served;
    QByteArray m_validToken;
    QByteArray m_revokedToken;
};

bool TestRequestGate::startServe(ServeProcess *served, const QStringList &options)
{
    QString error;
    const bool started = served->start(m_db, kOwnerKey, &error, options);
    if (!started)
        qWarning("%s", qPrintable(error));
    return started;
}

void TestRequestGate::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("gate.db"));
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {QStringLiteral("init"), QStringLiteral("--db"), m_db})
                 .exitCode,
             0);
    m_validToken = createToken().first;
    const auto [revoked, revokedId] = createToken();
    m_revokedToken = revoked;
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {QStringLiteral("token"), QStringLiteral("revoke"),
                                                       revokedId, QStringLiteral("--db"), m_db})
                 .exitCode,
             0);
    QVERIFY(startServe(&m_served, {}));
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_served.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write(
        request("POST", "/api/directory", rowJson(QStringLiteral("ZZ_SLOW"), QStringLiteral("sleep_ms"))));
    QTRY_VERIFY_WITH_TIMEOUT(socket.bytesAvailable() > 0, 10000);
    QVERIFY(socket.readAll().startsWith("HTTP/1.1 201"));
}

std::pair<QByteArray, QString> TestRequestGate::createToken()
{
    const ProcessRun::Result minted = ProcessRun::run(
        ServeProcess::program(), {QStringLiteral("token"), QStringLiteral("create"), QStringLiteral("--db"),
                                  m_db, QStringLiteral("--audience"), QStringLiteral("tests"),
                                  QStringLiteral("--keys"), QStringLiteral("ZZ_SLOW"),
                                  // The gate refuses before any row is looked up.
                                  QStringLiteral("--allow-unknown")});
    const QJsonObject created = QJsonDocument::fromJson(minted.out).object();
    return {created.value(QStringLiteral("value")).toString().toUtf8(),
            created.value(QStringLiteral("token")).toObject().value(QStringLiteral("id")).toString()};
}

void TestRequestGate::malformedHeadsAreRefusedAndClosed_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("logged"); // how its access-log line starts

    const QByteArray start =
        "POST /api/directory HTTP/1.1\r\nHost: 127.0.0.1\r\nx-terminal-key: " + kOwnerKey + "\r\n";
    QTest::addRow("duplicate Content-Length") << start + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"
                                              << 400 << QByteArray("POST /api/directory 400");
    QTest::addRow("conflicting Content-Length") << start + "Content-Length: 2\r\nContent-Length: 70\r\n\r\n{}"
                                                << 400 << QByteArray("POST /api/directory 400");
    QTest::addRow("Content-Length and chunked")
        << start + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}" << 400
        << QByteArray("POST /api/directory 400");
    QTest::addRow("chunked") << start + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
                             << 501 << QByteArray("POST /api/directory 501");
    QTest::addRow("huge Content-Length") << start + "Content-Length: 99999999999\r\n\r\n"
                                         << 413 << QByteArray("POST /api/directory 413");
    QTest::addRow("CR LF injection") << start + "X-A: a\rSet-Cookie: b\r\nContent-Length: 0\r\n\r\n"
                                     << 400 << QByteArray("POST /api/directory 400");
    QTest::addRow("header over the cap") << start + "X-A: " + QByteArray(40000, 'a') + "\r\n\r\n"
                                         << 431 << QByteArray("POST /api/directory 431");
    QTest::addRow("bare LF line ends") << QByteArray("GET /api/directory HTTP/1.1\nHost: 127.0.0.1\n\n")
                                       << 400 << QByteArray("GET /api/directory 400");
    QTest::addRow("bare LF, head unfinished")
        << QByteArray("PUT /api/directory/K?q=secret HTTP/1.1\nHost: 127.0.0.1\n") << 400
        << QByteArray("PUT /api/directory/K?q=… 400");
    QTest::addRow("request line cut by a bare CR")
        << QByteArray("DELETE /api/dir\rx") << 400 << QByteArray("DELETE /api/dir 400");
}

void TestRequestGate::malformedHeadsAreRefusedAndClosed()
{
    QFETCH(QByteArray, head);
    QFETCH(int, status);
    QFETCH(QByteArray, logged);
    const qsizetype logFrom = m_served.standardError().size();
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_served.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write(head);
    QByteArray answer;
    QTRY_VERIFY_WITH_TIMEOUT(
        (answer += socket.readAll(), socket.state() == QAbstractSocket::UnconnectedState), 10000);
    answer += socket.readAll();
    QVERIFY2(answer.startsWith("HTTP/1.1 " + QByteArray::number(status)), answer.constData());
    QVERIFY(answer.contains("Connection: close"));
    QVERIFY(answer.contains("{\"error\":"));
    QTRY_VERIFY_WITH_TIMEOUT(("\n" + loggedSince(m_served, logFrom)).contains("\n" + logged + ' '), 5000);
    QVERIFY2(loggedSince(m_served, logFrom).contains("ms 127.0.0.1\n"),
             loggedSince(m_served, logFrom).constData());
    QVERIFY(!loggedSince(m_served, logFrom).contains(kOwnerKey));
}

void TestRequestGate::keylessBodyIsRefusedBeforeItIsSent()
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_served.port());
    QVERIFY(socket.waitForConnected(5000));
    // The head alone: the 1 MiB it announces is never sent, so an answer can only come
    // from the head.
    socket.write("POST /api/directory HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 "Content-Length: 1048576\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(socket.bytesAvailable() > 0, 5000);
    const QByteArray answer = socket.readAll();
    QVERIFY2(answer.startsWith("HTTP/1.1 401"), answer.constData());
}

void TestRequestGate::refusedTokenIsAnsweredBeforeTheBody_data()
{
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addRow("unknown") << QByteArray("cdt_bogus-token-value") << 401
                             << QByteArray(R"({"error":"unknown_token","ok":false,"ran":false})");
    QTest::addRow("revoked") << QByteArray() << 403
                             << QByteArray(R"({"error":"revoked","ok":false,"ran":false})");
}

void TestRequestGate::refusedTokenIsAnsweredBeforeTheBody()
{
    QFETCH(QByteArray, token);
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    if (token.isEmpty())
        token = m_revokedToken;
    const qsizetype logFrom = m_served.standardError().size();
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_served.port());
    QVERIFY(socket.waitForConnected(5000));
    // The head and a few bytes of the 1 MiB it announces: the answer can only come from
    // the head, and the rest is never sent.
    const QByteArray head = "POST /api/dispatch HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                            + "\r\nx-capability-audience: tests\r\nContent-Length: 1048576\r\n\r\n";
    socket.write(head + R"({"key":"ZZ_SLOW","body":")");
    QByteArray answer;
    QTRY_VERIFY_WITH_TIMEOUT((answer += socket.readAll(), answer.endsWith('}')), 5000);
    QVERIFY2(answer.startsWith("HTTP/1.1 " + QByteArray::number(status)), answer.constData());
    QVERIFY(answer.contains("Connection: close\r\n"));
    QVERIFY(answer.contains("Content-Type: application/json\r\n"));
    QCOMPARE(answer.mid(answer.indexOf("\r\n\r\n") + 4), body);
    QTRY_VERIFY_WITH_TIMEOUT(
        loggedSince(m_served, logFrom).contains("POST /api/dispatch " + QByteArray::number(status)), 5000);
    QVERIFY(!loggedSince(m_served, logFrom).contains(token));
}

void TestRequestGate::validTokenStillDispatches()
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_served.port());
    QVERIFY(socket.waitForConnected(5000));
    const QByteArray body = R"({"key":"ZZ_SLOW","body":"1"})";
    socket.write("POST /api/dispatch HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + m_validToken
                 + "\r\nx-capability-audience: tests\r\nContent-Length: " + QByteArray::number(body.size())
                 + "\r\n\r\n" + body);
    QByteArray answer;
    QTRY_VERIFY_WITH_TIMEOUT((answer += socket.readAll(), answer.endsWith('}')), 10000);
    QVERIFY2(answer.startsWith("HTTP/1.1 200"), answer.constData());
    QVERIFY(answer.contains("\"ran\":true"));
}

void TestRequestGate::tricklingSenderIsCutAtTheDeadline()
{
    ServeProcess served;
    QVERIFY(startServe(&served, {QStringLiteral("--request-timeout"), QStringLiteral("800"),
                                 QStringLiteral("--idle-timeout"), QStringLiteral("10000")}));
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, served.port());
    QVERIFY(socket.waitForConnected(5000));
    const QByteArray head = request("GET", "/api/directory");
    qsizetype sent = 0;
    QTimer trickle;
    connect(&trickle, &QTimer::timeout, &socket, [&] {
        if (sent < head.size() - 1)
            socket.write(head.mid(sent++, 1));
    });
    trickle.start(50);
    QByteArray answer;
    QTRY_VERIFY_WITH_TIMEOUT(
        (answer += socket.readAll(), socket.state() == QAbstractSocket::UnconnectedState), 5000);
    QVERIFY2(answer.startsWith("HTTP/1.1 408"), answer.constData());
    QVERIFY(sent < head.size() - 1);
}

void TestRequestGate::connectionsOverTheCapAreRefused()
{
    ServeProcess served;
    QVERIFY(startServe(&served, {QStringLiteral("--max-connections"), QStringLiteral("3"),
                                 QStringLiteral("--request-timeout"), QStringLiteral("1500")}));
    std::vector<std::unique_ptr<QTcpSocket>> holders;
    for (int i = 0; i < 3; ++i) {
        holders.push_back(std::make_unique<QTcpSocket>());
        holders.back()->connectToHost(QHostAddress::LocalHost, served.port());
        QVERIFY(holders.back()->waitForConnected(5000));
        holders.back()->write("GET /api/directory HTTP/1.1\r\n");
        QVERIFY(holders.back()->waitForBytesWritten(5000));
    }
    QTcpSocket refused;
    refused.connectToHost(QHostAddress::LocalHost, served.port());
    QVERIFY(refused.waitForConnected(5000));
    QByteArray answer;
    QTRY_VERIFY_WITH_TIMEOUT(
        (answer += refused.readAll(), refused.state() == QAbstractSocket::UnconnectedState), 5000);
    QVERIFY2(answer.startsWith("HTTP/1.1 503"), answer.constData());
    for (const auto &holder : holders)
        QTRY_COMPARE_WITH_TIMEOUT(holder->state(), QAbstractSocket::UnconnectedState, 5000);
    QTcpSocket normal;
    normal.connectToHost(QHostAddress::LocalHost, served.port());
    QVERIFY(normal.waitForConnected(5000));
    normal.write(request("GET", "/api/directory"));
    QTRY_VERIFY_WITH_TIMEOUT(normal.bytesAvailable() > 0, 5000);
    QVERIFY(normal.readAll().startsWith("HTTP/1.1 200"));
}

void TestRequestGate::tlsHandshakesCountAgainstTheCaps_data()
{
    QTest::addColumn<QString>("cap");
    QTest::addColumn<int>("count");
    QTest::addRow("global") << QStringLiteral("--max-connections") << 3;
    QTest::addRow("per address") << QStringLiteral("--max-connections-per-address") << 3;
    // QSslServer counts handshakes as pending connections, and by default stops accepting
    // at 30 of them rather than refusing the next.
    QTest::addRow("global, over Qt's pending limit") << QStringLiteral("--max-connections") << 40;
}

void TestRequestGate::tlsHandshakesCountAgainstTheCaps()
{
    QFETCH(QString, cap);
    QFETCH(int, count);
    TestCertificates certificates;
    QString error;
    QVERIFY2(certificates.create(&error), qPrintable(error));
    ServeProcess served;
    served.setTls(certificates.certificateFile(TestCertificates::Server::Loopback),
                  certificates.keyFile(TestCertificates::Server::Loopback));
    // The handshake timeout is the idle timeout: far longer than the test waits.
    QVERIFY(startServe(
        &served, {cap, QString::number(count), QStringLiteral("--idle-timeout"), QStringLiteral("60000")}));
    const auto connectSilently = [&](QTcpSocket &socket) { // never says hello
        socket.connectToHost(QHostAddress::LocalHost, served.port());
        return socket.waitForConnected(5000);
    };
    std::vector<std::unique_ptr<QTcpSocket>> silent;
    for (int i = 0; i < count; ++i) {
        silent.push_back(std::make_unique<QTcpSocket>());
        QVERIFY(connectSilently(*silent.back()));
    }
    QTcpSocket refused;
    QVERIFY(connectSilently(refused));
    QTRY_COMPARE_WITH_TIMEOUT(refused.state(), QAbstractSocket::UnconnectedState, 5000);
    QVERIFY(refused.readAll().isEmpty());
    for (const auto &holder : silent)
        QCOMPARE(holder->state(), QAbstractSocket::ConnectedState);
    QTRY_VERIFY_WITH_TIMEOUT(served.standardError().contains("- - 503 0ms 127.0.0.1\n"), 5000);

    // A slot freed is a slot for the next client.
    silent.front()->abort();
    QSslConfiguration trusting = QSslConfiguration::defaultConfiguration();
    trusting.setCaCertificates(QSslCertificate::fromPath(certificates.caFile()));
    // Until the server has seen the close, an attempt is refused, and at once.
    std::unique_ptr<QSslSocket> client;
    for (int attempt = 0; attempt < 20 && !(client && client->isEncrypted()); ++attempt) {
        client = std::make_unique<QSslSocket>();
        client->setSslConfiguration(trusting);
        client->connectToHostEncrypted(QStringLiteral("127.0.0.1"), served.port());
        client->waitForEncrypted(5000);
    }
    QVERIFY2(client->isEncrypted(),
             qPrintable(client->errorString() + QString::fromUtf8(served.standardError())));
    client->write("GET /api/directory HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(client->bytesAvailable() > 0, 5000);
    QVERIFY(client->readAll().startsWith("HTTP/1.1 200"));
}

void TestRequestGate::pipelinedAnswersKeepTheirOrder()
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_served.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write(request("POST", "/api/dispatch", R"({"key":"ZZ_SLOW","body":"400"})")
                 + request("GET", "/api/directory/ZZ_SLOW"));
    QByteArray answers;
    QTRY_VERIFY_WITH_TIMEOUT((answers += socket.readAll(), answers.count("HTTP/1.1 ") == 2
                                                               && answers.endsWith('}')
                                                               && answers.indexOf("\"target\"") > 0),
                             10000);
    const qsizetype second = answers.indexOf("HTTP/1.1 ", 1);
    QVERIFY2(answers.left(second).contains("\"ran\""), answers.constData());
    QVERIFY2(answers.mid(second).contains("\"target\":\"sleep_ms\""), answers.constData());
}

void TestRequestGate::connectionCloseIsHonoured()
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_served.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write("GET /api/directory HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                 + request("GET", "/api/directory"));
    QByteArray answers;
    QTRY_VERIFY_WITH_TIMEOUT(
        (answers += socket.readAll(), socket.state() == QAbstractSocket::UnconnectedState), 5000);
    QCOMPARE(answers.count("HTTP/1.1 200"), 1);
    QVERIFY(answers.contains("Connection: close"));
}

void TestRequestGate::clientThatNeverReadsHoldsLittle()
{
    ServeProcess served;
    QVERIFY(startServe(&served, {QStringLiteral("--max-unsent-bytes"), QStringLiteral("65536"),
                                 QStringLiteral("--idle-timeout"), QStringLiteral("1500")}));
    // Rows near the 512 KiB content limit, so one listing is about 3.5 MB.
    for (int i = 0; i < 7; ++i) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, served.port());
        QVERIFY(socket.waitForConnected(5000));
        socket.write(request("POST", "/api/directory",
                             rowJson(QStringLiteral("ZZ_BIG_%1").arg(i), QStringLiteral("echo"),
                                     QByteArray(500 * 1024, 'x'))));
        QTRY_VERIFY_WITH_TIMEOUT(socket.bytesAvailable() > 0, 10000);
        QVERIFY(socket.readAll().startsWith("HTTP/1.1 201"));
    }
    const qint64 before = peakResidentKiB(served.processId());
    QVERIFY(before > 0);
    // 40 listings of 3.5 MB each: 140 MB of answers the client never takes.
    NonReadingClient client(served.port());
    QVERIFY(client.connected());
    QByteArray pipelined;
    for (int i = 0; i < 40; ++i)
        pipelined += request("GET", "/api/directory");
    QVERIFY(client.send(pipelined));
    QVERIFY2(client.waitForCut(15000), "the server kept a client that never reads");
    const qint64 grown = peakResidentKiB(served.processId()) - before;
    // AddressSanitizer keeps freed memory in quarantine (256 MiB by default), so there the
    // server's peak says nothing of what it holds.
#if !defined(__SANITIZE_ADDRESS__) && !(defined(__has_feature) && __has_feature(address_sanitizer))
    QVERIFY2(grown < 48 * 1024, qPrintable(QStringLiteral("the server grew by %1 KiB").arg(grown)));
#endif
    QVERIFY(served.isRunning());
}

QTEST_GUILESS_MAIN(TestRequestGate)
#include "tst_requestgate.moc"
