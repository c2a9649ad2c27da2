#include "dispatch/core/isotime.h"
#include "tests/support/processrun.h"
#include "tests/support/serveprocess.h"
#include "tests/support/testcertificates.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrlQuery>

namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("tst-owner-key-5b0c9e1f2a7d4c3b");

using Headers = QList<std::pair<QByteArray, QByteArray>>;

struct HttpAnswer
{
    int status = 0;
    QByteArray body;
    QJsonObject json;
    QNetworkReply *raw = nullptr; // for headers; deleted with the manager
};

QByteArray rowJson(const QString &key, const QString &type, const QString &target, const QString &what)
{
    const QString content =
        QStringLiteral("# WHAT: %2\n# WHEN_TO_USE: an end-to-end test needs it.\n"
                       "# ARGS: $1=latitude | $2=longitude\n# EX: [%1]37.77|-122.42[/%1]\n"
                       "# OUTPUT: whatever the target returns")
            .arg(key, what);
    return QJsonDocument(QJsonObject{{QStringLiteral("key"), key},
                                     {QStringLiteral("type"), type},
                                     {QStringLiteral("target"), target},
                                     {QStringLiteral("auth"), QString()},
                                     {QStringLiteral("content"), content},
                                     {QStringLiteral("category"), QStringLiteral("tools")},
                                     {QStringLiteral("enabled"), 1},
                                     {QStringLiteral("planner_visible"), 1},
                                     {QStringLiteral("examples"), QStringLiteral("[\"37.77|-122.42\"]")}})
        .toJson(QJsonDocument::Compact);
}

// Posts a body far over serve's limit, as fast as the socket takes it, until the server
// answers or closes; returns what it answered.
QByteArray uploadFarTooMuch(QTcpSocket &socket)
{
    const qint64 announced = 512LL * 1024 * 1024;
    socket.write("POST /api/directory HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 "x-terminal-key: "
                 + kOwnerKey + "\r\nContent-Length: " + QByteArray::number(announced) + "\r\n\r\n");
    const QByteArray chunk(256 * 1024, 'x');
    QByteArray answer;
    for (int i = 0; i < 64 && socket.state() == QAbstractSocket::ConnectedState && answer.isEmpty(); ++i) {
        socket.write(chunk);
        socket.waitForBytesWritten(1000);
        if (socket.waitForReadyRead(20))
            answer += socket.readAll();
    }
    if (answer.isEmpty() && socket.waitForReadyRead(5000))
        answer += socket.readAll();
    return answer;
}

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    const quint16 port = probe.serverPort();
    probe.close();
    return port;
}

} // namespace

class TestDirectoryServer : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void refusesToStartWithoutKeyOrOffLoopback();
    void articleTranscript();
    void statusCodes_data();
    void statusCodes();
    void ifMatchConflicts();
    void headOptionsTrailingSlash();
    void oversizedUploadIsCutOff();
    void readsAndFilters();
    void capabilityTokens();
    void accessLogHasNoSecrets();
    void sigtermFinishesRunningDispatch();
    void idleConnectionsAreClosed();
    void tlsKeepsTheLimits();
    void tlsStartupErrors_data();
    void tlsStartupErrors();

private:
    HttpAnswer call(const QByteArray &verb, const QString &path, const QByteArray &body = {},
                    const Headers &headers = {});
    HttpAnswer owner(const QByteArray &verb, const QString &path, const QByteArray &body = {},
                     Headers headers = {})
    {
        headers.append({QByteArrayLiteral("x-terminal-key"), kOwnerKey});
        return call(verb, path, body, headers);
    }
    QString base() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    ProcessRun::Result ctl(const QStringList &arguments);
    void startServer();

    QTemporaryDir m_dir;
    QString m_db;
    quint16 m_port = 0;
    QProcess m_server;
    QNetworkAccessManager m_network;
    QHttpServer m_upstream;
    quint16 m_upstreamPort = 0;
    QUrlQuery m_upstreamSaw;
    QByteArray m_serverLog;
};

void TestDirectoryServer::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("served.db"));
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--db"), m_db}).exitCode, 0);

    // Open-Meteo's answer, shaped as the article shows it.
    m_upstream.route(QStringLiteral("/v1/forecast"), [this](const QHttpServerRequest &request) {
        m_upstreamSaw = request.query();
        return QHttpServerResponse(
            QJsonObject{{QStringLiteral("latitude"), 37.763283},
                        {QStringLiteral("longitude"), -122.41286},
                        {QStringLiteral("current"), QJsonObject{{QStringLiteral("interval"), 900},
                                                                {QStringLiteral("temperature_2m"), 15.7}}}});
    });
    m_upstreamPort = m_upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(m_upstreamPort != 0);
    startServer();
}

void TestDirectoryServer::startServer()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("CAPDESK_TERMINAL_KEY"), QString::fromLatin1(kOwnerKey));
    m_server.setProcessEnvironment(environment);
    // The port is probed here (from before serve took port 0); should another process bind
    // it first, serve says "cannot listen on" and exits, and another port is tried.
    QByteArray out;
    for (int attempt = 0; attempt < 5 && !out.contains("\"listening\""); ++attempt) {
        m_port = freePort();
        out.clear();
        m_server.start(QStringLiteral(CAPDESKCTL_PATH),
                       {QStringLiteral("serve"), QStringLiteral("--db"), m_db, QStringLiteral("--listen"),
                        QStringLiteral("127.0.0.1:%1").arg(m_port)});
        QVERIFY(m_server.waitForStarted());
        // serve prints {"ok":true,"listening":…} once its socket is bound, or fails and exits.
        QTRY_VERIFY_WITH_TIMEOUT((out += m_server.readAllStandardOutput()).contains("\"listening\"")
                                     || m_server.state() == QProcess::NotRunning,
                                 15000);
        out += m_server.readAllStandardOutput();
        QVERIFY2(out.contains("\"listening\"") || out.contains("cannot listen on"), out.constData());
    }
    QVERIFY2(out.contains(QStringLiteral("127.0.0.1:%1\"").arg(m_port).toUtf8()), out.constData());
    QCOMPARE(call("GET", QStringLiteral("/api/directory")).status, 200);
}

void TestDirectoryServer::cleanupTestCase()
{
    if (m_server.state() != QProcess::NotRunning) {
        m_server.terminate();
        m_server.waitForFinished(10000);
    }
}

ProcessRun::Result TestDirectoryServer::ctl(const QStringList &arguments)
{
    return ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), arguments);
}

HttpAnswer TestDirectoryServer::call(const QByteArray &verb, const QString &path, const QByteArray &body,
                                     const Headers &headers)
{
    QNetworkRequest request(QUrl(base() + path));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    QNetworkReply *reply =
        verb == "HEAD" ? m_network.head(request) : m_network.sendCustomRequest(request, verb, body);
    QEventLoop loop;
    connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    HttpAnswer answer;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = reply->readAll();
    answer.json = QJsonDocument::fromJson(answer.body).object();
    answer.raw = reply;
    return answer;
}

void TestDirectoryServer::refusesToStartWithoutKeyOrOffLoopback()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("CAPDESK_TERMINAL_KEY"));
    const QStringList serve{QStringLiteral("serve"), QStringLiteral("--db"), m_db,
                            QStringLiteral("--listen")};
    ProcessRun::Result run = ProcessRun::run(
        QStringLiteral(CAPDESKCTL_PATH), serve + QStringList{QStringLiteral("127.0.0.1:1")}, {}, environment);
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("CAPDESK_TERMINAL_KEY"));
    environment.insert(QStringLiteral("CAPDESK_TERMINAL_KEY"), QString::fromLatin1(kOwnerKey));
    run = ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH),
                          serve + QStringList{QStringLiteral("0.0.0.0:8787")}, {}, environment);
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("loopback"));
    environment.insert(QStringLiteral("CAPDESK_TERMINAL_KEY"), QStringLiteral("short"));
    run = ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), serve + QStringList{QStringLiteral("127.0.0.1:1")},
                          {}, environment);
    QCOMPARE(run.exitCode, 2);
}

void TestDirectoryServer::articleTranscript()
{
    const QString target =
        QStringLiteral("GET http://127.0.0.1:%1/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m")
            .arg(m_upstreamPort);
    const QByteArray row =
        rowJson(QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("http"), target,
                QStringLiteral("Current temperature in Celsius for one latitude and longitude."));

    // Step 2: the POST, and the same without the key.
    const HttpAnswer unauthorized = call("POST", QStringLiteral("/api/directory"), row);
    QCOMPARE(unauthorized.status, 401);
    QCOMPARE(unauthorized.json, (QJsonObject{{QStringLiteral("error"), QStringLiteral("unauthorized")}}));
    const HttpAnswer created = owner("POST", QStringLiteral("/api/directory"), row);
    QCOMPARE(created.status, 201);
    QCOMPARE(created.json.value(QStringLiteral("ok")), QJsonValue(true));
    QCOMPARE(created.json.value(QStringLiteral("key")).toString(), QStringLiteral("ZZ_TEST_TEMPERATURE"));
    QVERIFY(created.json.value(QStringLiteral("updated_at")).toString().endsWith(u'Z'));

    // sensitive and runner are not patchable through REST.
    const HttpAnswer runner =
        owner("PATCH", QStringLiteral("/api/directory/ZZ_TEST_TEMPERATURE"), R"({"runner":"x"})");
    QCOMPARE(runner.status, 400);
    QCOMPARE(runner.json, (QJsonObject{{QStringLiteral("error"), QStringLiteral("no recognized fields")}}));

    // Step 3: invoke it.
    const HttpAnswer invoked = owner("POST", QStringLiteral("/api/dispatch"),
                                     R"({"key":"ZZ_TEST_TEMPERATURE","body":"37.77|-122.42"})");
    QCOMPARE(invoked.status, 200);
    QCOMPARE(invoked.json.value(QStringLiteral("ok")), QJsonValue(true));
    QCOMPARE(invoked.json.value(QStringLiteral("ran")), QJsonValue(true));
    QVERIFY(invoked.json.value(QStringLiteral("trace")).toString().startsWith(QLatin1String("t_")));
    QVERIFY(invoked.json.value(QStringLiteral("result")).toString().startsWith(QLatin1String("HTTP 200:")));
    QVERIFY(
        invoked.json.value(QStringLiteral("result")).toString().contains(QLatin1String("temperature_2m")));
    QCOMPARE(m_upstreamSaw.queryItemValue(QStringLiteral("latitude")), QStringLiteral("37.77"));
    QCOMPARE(m_upstreamSaw.queryItemValue(QStringLiteral("longitude")), QStringLiteral("-122.42"));
    const QJsonObject proof = invoked.json.value(QStringLiteral("proof")).toObject();
    const QString id = proof.value(QStringLiteral("invocation_id")).toString();
    QVERIFY(id.startsWith(QLatin1String("inv_")));
    QCOMPARE(proof.value(QStringLiteral("ok")), QJsonValue(true));
    QCOMPARE(proof.value(QStringLiteral("public_receipt")).toString(),
             base() + QStringLiteral("/receipt/") + id);

    // Step 4: the receipt, keyless, and its page.
    const HttpAnswer confirmed = call("GET", QStringLiteral("/api/dispatch?confirm=") + id);
    QCOMPARE(confirmed.status, 200);
    QCOMPARE(confirmed.json.value(QStringLiteral("confirmed")), QJsonValue(true));
    QCOMPARE(confirmed.json.value(QStringLiteral("status")).toString(),
             QStringLiteral("PROVEN_MATERIAL_RESULT"));
    const QJsonObject receipt = confirmed.json.value(QStringLiteral("receipt")).toObject();
    QCOMPARE(receipt.value(QStringLiteral("actor")).toString(), QStringLiteral("owner:terminal-key"));
    QCOMPARE(receipt.value(QStringLiteral("runner")).toString(), QStringLiteral("http"));
    const HttpAnswer page = call("GET", QStringLiteral("/receipt/") + id);
    QCOMPARE(page.status, 200);
    QVERIFY(page.raw->header(QNetworkRequest::ContentTypeHeader)
                .toString()
                .startsWith(QLatin1String("text/html")));
    QVERIFY(page.body.contains(id.toUtf8()));
    QVERIFY(page.body.contains("PROVEN_MATERIAL_RESULT"));

    // Step 5: remove it; the receipt outlives the row.
    const HttpAnswer deleted = owner("DELETE", QStringLiteral("/api/directory/ZZ_TEST_TEMPERATURE"));
    QCOMPARE(deleted.status, 200);
    QCOMPARE(deleted.json, (QJsonObject{{QStringLiteral("ok"), true},
                                        {QStringLiteral("key"), QStringLiteral("ZZ_TEST_TEMPERATURE")},
                                        {QStringLiteral("deleted"), 1}}));
    QCOMPARE(call("GET", QStringLiteral("/api/directory/ZZ_TEST_TEMPERATURE")).status, 404);
    QCOMPARE(
        call("GET", QStringLiteral("/api/dispatch?confirm=") + id).json.value(QStringLiteral("confirmed")),
        QJsonValue(true));
}

void TestDirectoryServer::statusCodes_data()
{
    QTest::addColumn<QByteArray>("verb");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("key"); // x-terminal-key; empty: none
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("error");

    const QByteArray fnRow = rowJson(QStringLiteral("ZZ_CODES"), QStringLiteral("fn"), QStringLiteral("echo"),
                                     QStringLiteral("Echo the body."));
    const QByteArray wrong = QByteArrayLiteral("not-the-owner-key-at-all");
    QTest::addRow("create") << QByteArray("POST") << QStringLiteral("/api/directory") << fnRow << kOwnerKey
                            << 201 << QString();
    QTest::addRow("create again: 409")
        << QByteArray("POST") << QStringLiteral("/api/directory") << fnRow << kOwnerKey << 409 << QString();
    QTest::addRow("wrong key: 401") << QByteArray("POST") << QStringLiteral("/api/directory") << fnRow
                                    << wrong << 401 << QStringLiteral("unauthorized");
    QTest::addRow("PUT keyless: 401") << QByteArray("PUT") << QStringLiteral("/api/directory/ZZ_CODES")
                                      << fnRow << QByteArray() << 401 << QStringLiteral("unauthorized");
    QTest::addRow("PATCH keyless: 401")
        << QByteArray("PATCH") << QStringLiteral("/api/directory/ZZ_CODES") << QByteArray(R"({"seq":1})")
        << QByteArray() << 401 << QStringLiteral("unauthorized");
    QTest::addRow("DELETE keyless: 401")
        << QByteArray("DELETE") << QStringLiteral("/api/directory/ZZ_CODES") << QByteArray() << QByteArray()
        << 401 << QStringLiteral("unauthorized");
    QTest::addRow("dispatch keyless: 401") << QByteArray("POST") << QStringLiteral("/api/dispatch")
                                           << QByteArray(R"({"key":"ZZ_CODES","body":"x"})") << QByteArray()
                                           << 401 << QStringLiteral("unauthorized");
    QTest::addRow("dispatch wrong key: 401")
        << QByteArray("POST") << QStringLiteral("/api/dispatch")
        << QByteArray(R"({"key":"ZZ_CODES","body":"x"})") << wrong << 401 << QStringLiteral("unauthorized");
    QTest::addRow("dispatch: 200") << QByteArray("POST") << QStringLiteral("/api/dispatch")
                                   << QByteArray(R"({"key":"ZZ_CODES","body":"x|y"})") << kOwnerKey << 200
                                   << QString();
    QTest::addRow("shape: 200") << QByteArray("POST") << QStringLiteral("/api/dispatch")
                                << QByteArray(R"({"key":"ZZ_CODES","body":"x","shape":true})") << kOwnerKey
                                << 200 << QString();
    QTest::addRow("dispatch unknown key: 404") << QByteArray("POST") << QStringLiteral("/api/dispatch")
                                               << QByteArray(R"({"key":"ZZ_NOPE","body":""})") << kOwnerKey
                                               << 404 << QStringLiteral("unknown key ZZ_NOPE");
    QTest::addRow("dispatch no key field: 400")
        << QByteArray("POST") << QStringLiteral("/api/dispatch") << QByteArray(R"({"body":""})") << kOwnerKey
        << 400 << QStringLiteral("key is required");
    QTest::addRow("not JSON: 400") << QByteArray("POST") << QStringLiteral("/api/directory")
                                   << QByteArray("{nope") << kOwnerKey << 400 << QString();
    QTest::addRow("no type: 400") << QByteArray("POST") << QStringLiteral("/api/directory")
                                  << QByteArray(R"({"key":"ZZ_T"})") << kOwnerKey << 400
                                  << QStringLiteral("key and type are required");
    QTest::addRow("PATCH sensitive: 400")
        << QByteArray("PATCH") << QStringLiteral("/api/directory/ZZ_CODES")
        << QByteArray(R"({"sensitive":1})") << kOwnerKey << 400 << QStringLiteral("no recognized fields");
    QTest::addRow("PATCH allowed: 200") << QByteArray("PATCH") << QStringLiteral("/api/directory/ZZ_CODES")
                                        << QByteArray(R"({"seq":7})") << kOwnerKey << 200 << QString();
    QTest::addRow("PATCH missing: 404") << QByteArray("PATCH") << QStringLiteral("/api/directory/ZZ_NOPE")
                                        << QByteArray(R"({"seq":7})") << kOwnerKey << 404 << QString();
    QTest::addRow("GET missing: 404") << QByteArray("GET") << QStringLiteral("/api/directory/ZZ_NOPE")
                                      << QByteArray() << QByteArray() << 404 << QString();
    QTest::addRow("DELETE missing: 404") << QByteArray("DELETE") << QStringLiteral("/api/directory/ZZ_NOPE")
                                         << QByteArray() << kOwnerKey << 404 << QString();
    QTest::addRow("hygiene: 422") << QByteArray("POST") << QStringLiteral("/api/directory")
                                  << QByteArray(R"({"key":"ZZ_BARE","type":"fn","target":"echo"})")
                                  << kOwnerKey << 422 << QStringLiteral("hygiene");
    QTest::addRow("PUT regressing: 422")
        << QByteArray("PUT") << QStringLiteral("/api/directory/ZZ_CODES")
        << QByteArray(R"({"type":"fn","target":"echo"})") << kOwnerKey << 422 << QStringLiteral("hygiene");
    QTest::addRow("PUT other key: 400")
        << QByteArray("PUT") << QStringLiteral("/api/directory/ZZ_CODES")
        << QByteArray(R"({"key":"ZZ_OTHER","type":"fn"})") << kOwnerKey << 400 << QString();
    QTest::addRow("body over limit: 413")
        << QByteArray("POST") << QStringLiteral("/api/directory") << QByteArray(1024 * 1024 + 1, 'x')
        << kOwnerKey << 413 << QString();
    QTest::addRow("unknown route: 404") << QByteArray("GET") << QStringLiteral("/api/nothing") << QByteArray()
                                        << QByteArray() << 404 << QStringLiteral("no such route");
    QTest::addRow("wrong method: 405") << QByteArray("PUT") << QStringLiteral("/api/dispatch") << QByteArray()
                                       << kOwnerKey << 405 << QStringLiteral("method not allowed");
    QTest::addRow("confirm keyless unknown: 200")
        << QByteArray("GET") << QStringLiteral("/api/dispatch?confirm=inv_zzzzzzzzzz") << QByteArray()
        << QByteArray() << 200 << QString();
    QTest::addRow("dispatch GET bare: 400") << QByteArray("GET") << QStringLiteral("/api/dispatch")
                                            << QByteArray() << QByteArray() << 400 << QString();
    QTest::addRow("contract markdown: 200")
        << QByteArray("GET") << QStringLiteral("/api/dispatch?key=ZZ_CODES&format=markdown") << QByteArray()
        << QByteArray() << 200 << QString();
    QTest::addRow("contract missing: 404")
        << QByteArray("GET") << QStringLiteral("/api/dispatch?key=ZZ_NOPE&format=markdown") << QByteArray()
        << QByteArray() << 404 << QString();
    const QByteArray linkedStep =
        R"({"key":"ZZ_CODES","body":"x","parent":"inv_0123456789","trace":"t_01234567"})";
    QTest::addRow("step with parent: 200") << QByteArray("POST") << QStringLiteral("/api/dispatch")
                                           << linkedStep << kOwnerKey << 200 << QString();
    QTest::addRow("parent without trace: 400")
        << QByteArray("POST") << QStringLiteral("/api/dispatch")
        << QByteArray(R"({"key":"ZZ_CODES","parent":"inv_0123456789"})") << kOwnerKey << 400
        << QStringLiteral("a step names its parent and its trace together");
    QTest::addRow("malformed parent: 400")
        << QByteArray("POST") << QStringLiteral("/api/dispatch")
        << QByteArray(R"({"key":"ZZ_CODES","parent":"inv_X","trace":"t_01234567"})") << kOwnerKey << 400
        << QStringLiteral("field 'parent' must be");
    QTest::addRow("shape with parent: 400")
        << QByteArray("POST") << QStringLiteral("/api/dispatch")
        << QByteArray(R"({"key":"ZZ_CODES","shape":true,"parent":"inv_0123456789","trace":"t_01234567"})")
        << kOwnerKey << 400 << QStringLiteral("a shape call writes no receipt");
    // inv_0123456789 is the run the "step with parent" row above ran a step under.
    const auto flowRun = [](const QString &key, const QString &duration,
                            const QString &id = QStringLiteral("inv_0123456789"),
                            const QString &started = QStringLiteral("2026-12-03T08:00:00.000Z")) {
        return QStringLiteral(R"({"key":"%1","body":"","output":"x","invocation_id":"%3",)"
                              R"("trace":"t_01234567","started_at":"%4","duration_ms":%2})")
            .arg(key, duration, id, started)
            .toUtf8();
    };
    QTest::addRow("flow-runs keyless: 401") << QByteArray("POST") << QStringLiteral("/api/flow-runs")
                                            << flowRun(QStringLiteral("ZZ_CODES"), QStringLiteral("5"))
                                            << QByteArray() << 401 << QStringLiteral("unauthorized");
    QTest::addRow("flow-runs of a non-flow: 400")
        << QByteArray("POST") << QStringLiteral("/api/flow-runs")
        << flowRun(QStringLiteral("ZZ_CODES"), QStringLiteral("5")) << kOwnerKey << 400
        << QStringLiteral("ZZ_CODES is not a flow");
    QTest::addRow("flow-runs unknown key: 404")
        << QByteArray("POST") << QStringLiteral("/api/flow-runs")
        << flowRun(QStringLiteral("ZZ_NOPE"), QStringLiteral("5")) << kOwnerKey << 404 << QString();
    QTest::addRow("flow-runs with no step run: 422")
        << QByteArray("POST") << QStringLiteral("/api/flow-runs")
        << flowRun(QStringLiteral("ZZ_CODES"), QStringLiteral("5"), QStringLiteral("inv_0123456788"))
        << kOwnerKey << 422 << QStringLiteral("no step ran here under inv_0123456788");
    QTest::addRow("flow-runs started in the future: 400")
        << QByteArray("POST") << QStringLiteral("/api/flow-runs")
        << flowRun(QStringLiteral("ZZ_CODES"), QStringLiteral("5"), QStringLiteral("inv_0123456789"),
                   QStringLiteral("2099-01-01T00:00:00.000Z"))
        << kOwnerKey << 400 << QStringLiteral("field 'started_at' is in the future");
    QTest::addRow("flow-runs negative duration: 400")
        << QByteArray("POST") << QStringLiteral("/api/flow-runs")
        << flowRun(QStringLiteral("ZZ_CODES"), QStringLiteral("-1")) << kOwnerKey << 400
        << QStringLiteral("field 'duration_ms' must be a whole number");
    QTest::addRow("flow-runs GET: 405")
        << QByteArray("GET") << QStringLiteral("/api/flow-runs") << QByteArray() << QByteArray() << 405
        << QStringLiteral("method not allowed");
    QTest::addRow("receipt page missing: 404")
        << QByteArray("GET") << QStringLiteral("/receipt/inv_zzzzzzzzzz") << QByteArray() << QByteArray()
        << 404 << QString();
}

void TestDirectoryServer::statusCodes()
{
    QFETCH(QByteArray, verb);
    QFETCH(QString, path);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, key);
    QFETCH(int, status);
    QFETCH(QString, error);
    Headers headers;
    if (!key.isEmpty())
        headers.append({QByteArrayLiteral("x-terminal-key"), key});
    const HttpAnswer answer = call(verb, path, body, headers);
    QCOMPARE(answer.status, status);
    if (!error.isEmpty())
        QVERIFY2(answer.json.value(QStringLiteral("error")).toString().startsWith(error),
                 answer.body.constData());
    if (status == 422 && error == QLatin1String("hygiene"))
        QVERIFY(!answer.json.value(QStringLiteral("findings")).toArray().isEmpty());
}

void TestDirectoryServer::ifMatchConflicts()
{
    const HttpAnswer created = owner("POST", QStringLiteral("/api/directory"),
                                     rowJson(QStringLiteral("ZZ_MATCH"), QStringLiteral("fn"),
                                             QStringLiteral("echo"), QStringLiteral("Echo for If-Match.")));
    QCOMPARE(created.status, 201);
    const QByteArray read = created.json.value(QStringLiteral("updated_at")).toString().toUtf8();
    const HttpAnswer fetched = call("GET", QStringLiteral("/api/directory/ZZ_MATCH"));
    QCOMPARE(fetched.raw->rawHeader("ETag"), '"' + read + '"');
    // serve stamps updated_at from this machine's clock to the millisecond: once that clock
    // reads past `read`, the patch below gets a different updated_at.
    QTRY_VERIFY(IsoTime::nowUtc().toUtf8() > read);
    const HttpAnswer patched = owner("PATCH", QStringLiteral("/api/directory/ZZ_MATCH"), R"({"seq":2})",
                                     {{QByteArrayLiteral("If-Match"), '"' + read + '"'}});
    QCOMPARE(patched.status, 200);
    const Headers stale{{QByteArrayLiteral("If-Match"), read}};
    const HttpAnswer patchStale =
        owner("PATCH", QStringLiteral("/api/directory/ZZ_MATCH"), R"({"seq":3})", stale);
    QCOMPARE(patchStale.status, 412);
    QCOMPARE(patchStale.json.value(QStringLiteral("updated_at")).toString(),
             patched.json.value(QStringLiteral("updated_at")).toString());
    QJsonObject full = fetched.json;
    full.insert(QStringLiteral("seq"), 9);
    QCOMPARE(
        owner("PUT", QStringLiteral("/api/directory/ZZ_MATCH"), QJsonDocument(full).toJson(), stale).status,
        412);
    QCOMPARE(owner("DELETE", QStringLiteral("/api/directory/ZZ_MATCH"), {}, stale).status, 412);
    QCOMPARE(call("GET", QStringLiteral("/api/directory/ZZ_MATCH")).json.value(QStringLiteral("seq")).toInt(),
             2);
    const Headers current{{QByteArrayLiteral("If-Match"),
                           patched.json.value(QStringLiteral("updated_at")).toString().toUtf8()}};
    QCOMPARE(
        owner("PUT", QStringLiteral("/api/directory/ZZ_MATCH"), QJsonDocument(full).toJson(), current).status,
        200);
    QCOMPARE(call("GET", QStringLiteral("/api/directory/ZZ_MATCH")).json.value(QStringLiteral("seq")).toInt(),
             9);
}

void TestDirectoryServer::headOptionsTrailingSlash()
{
    const HttpAnswer get = call("GET", QStringLiteral("/api/directory"));
    const HttpAnswer head = call("HEAD", QStringLiteral("/api/directory"));
    QCOMPARE(head.status, 200);
    QVERIFY(head.body.isEmpty());
    QCOMPARE(head.raw->header(QNetworkRequest::ContentLengthHeader).toLongLong(), get.body.size());
    const HttpAnswer options = call("OPTIONS", QStringLiteral("/api/directory/ZZ_CODES"));
    QCOMPARE(options.status, 204);
    QCOMPARE(options.raw->rawHeader("Allow"), QByteArrayLiteral("GET, HEAD, PUT, PATCH, DELETE, OPTIONS"));
    QVERIFY(options.raw->rawHeader("Access-Control-Allow-Origin").isEmpty());
    QCOMPARE(call("GET", QStringLiteral("/api/directory/")).body, get.body);
    QCOMPARE(call("GET", QStringLiteral("/api/directory/ZZ_CODES/")).status, 200);
    const HttpAnswer wrong = call("DELETE", QStringLiteral("/api/directory"), {},
                                  {{QByteArrayLiteral("x-terminal-key"), kOwnerKey}});
    QCOMPARE(wrong.status, 405);
    QCOMPARE(wrong.raw->rawHeader("Allow"), QByteArrayLiteral("GET, HEAD, POST, OPTIONS"));
}

void TestDirectoryServer::oversizedUploadIsCutOff()
{
    // Far over the limit: refused while it streams in, not after it was buffered.
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_port);
    QVERIFY(socket.waitForConnected(5000));
    const QByteArray answer = uploadFarTooMuch(socket);
    QVERIFY2(answer.startsWith("HTTP/1.1 413"), answer.left(200).constData());
    QTRY_COMPARE_WITH_TIMEOUT(socket.state(), QAbstractSocket::UnconnectedState, 5000);
    QCOMPARE(call("GET", QStringLiteral("/api/directory?q=none")).status, 200); // the server is fine
}

void TestDirectoryServer::readsAndFilters()
{
    const auto keysOf = [](const HttpAnswer &answer) {
        QStringList keys;
        for (const QJsonValue &row : answer.json.value(QStringLiteral("rows")).toArray())
            keys.append(row.toObject().value(QStringLiteral("key")).toString());
        return keys;
    };
    QVERIFY(keysOf(call("GET", QStringLiteral("/api/directory"))).contains(QStringLiteral("ZZ_CODES")));
    QCOMPARE(keysOf(call("GET", QStringLiteral("/api/directory?category=none-such"))), QStringList());
    QVERIFY(keysOf(call("GET", QStringLiteral("/api/directory?category=tools")))
                .contains(QStringLiteral("ZZ_CODES")));
    QCOMPARE(keysOf(call("GET", QStringLiteral("/api/directory?q=zz_codes"))),
             QStringList{QStringLiteral("ZZ_CODES")});
    const HttpAnswer registry = call("GET", QStringLiteral("/api/dispatch?registry=1"));
    QCOMPARE(registry.status, 200);
    QCOMPARE(registry.json.value(QStringLiteral("count")).toInt(),
             registry.json.value(QStringLiteral("objects")).toArray().size());
    QVERIFY(registry.json.value(QStringLiteral("count")).toInt() >= 1);
    const HttpAnswer contract = call("GET", QStringLiteral("/api/dispatch?key=ZZ_CODES&format=markdown"));
    QVERIFY(contract.raw->header(QNetworkRequest::ContentTypeHeader)
                .toString()
                .startsWith(QLatin1String("text/markdown")));
    QVERIFY(contract.body.contains("ZZ_CODES"));
}

void TestDirectoryServer::capabilityTokens()
{
    const auto mint = [this](const QStringList &options) {
        const ProcessRun::Result run =
            ctl(QStringList{QStringLiteral("token"), QStringLiteral("create"), QStringLiteral("--db"), m_db,
                            QStringLiteral("--audience"), QStringLiteral("tests")}
                + options);
        return QJsonDocument::fromJson(run.out).object().value(QStringLiteral("value")).toString().toUtf8();
    };
    const QByteArray pinned = mint({QStringLiteral("--keys"), QStringLiteral("ZZ_CODES"),
                                    QStringLiteral("--pin"), QStringLiteral("ZZ_CODES")});
    const QByteArray small = mint({QStringLiteral("--keys"), QStringLiteral("ZZ_CODES"),
                                   QStringLiteral("--payload-ceiling"), QStringLiteral("4")});
    QVERIFY(!pinned.isEmpty() && !small.isEmpty());
    const auto dispatch = [this](const QByteArray &token, const QByteArray &body, Headers headers = {}) {
        headers.append({QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + token});
        return call("POST", QStringLiteral("/api/dispatch"), body, headers);
    };
    const Headers audience{{QByteArrayLiteral("x-capability-audience"), QByteArrayLiteral("tests")}};
    const HttpAnswer ran = dispatch(pinned, R"({"key":"ZZ_CODES","body":"hi"})", audience);
    QCOMPARE(ran.status, 200);
    const QString id =
        ran.json.value(QStringLiteral("proof")).toObject().value(QStringLiteral("invocation_id")).toString();
    const QJsonObject receipt = call("GET", QStringLiteral("/api/dispatch?confirm=") + id)
                                    .json.value(QStringLiteral("receipt"))
                                    .toObject();
    QVERIFY(receipt.value(QStringLiteral("actor")).toString().startsWith(QLatin1String("token:")));
    // The audience may come in the body too.
    QCOMPARE(dispatch(pinned, R"({"key":"ZZ_CODES","body":"hi","audience":"tests"})").status, 200);
    QCOMPARE(dispatch(pinned, R"({"key":"ZZ_CODES","body":"hi","audience":"others"})").status, 403);
    // Only the owner names the actor: a token holder may not pass as an MCP client.
    const HttpAnswer posing = dispatch(pinned, R"({"key":"ZZ_CODES","body":"hi","audience":"tests"})",
                                       {{QByteArrayLiteral("Capdesk-Actor"), QByteArrayLiteral("mcp:x")}});
    QCOMPARE(posing.status, 403);
    QCOMPARE(posing.json.value(QStringLiteral("field")).toString(), QStringLiteral("Capdesk-Actor"));
    QCOMPARE(dispatch(small, R"({"key":"ZZ_CODES","body":"too long"})", audience).status, 413);
    // Hanging a call under a flow receipt is the owner's debugger's alone.
    const HttpAnswer linked = dispatch(
        pinned, R"({"key":"ZZ_CODES","body":"hi","parent":"inv_aaaaaaaaaa","trace":"t_aaaaaaaa"})", audience);
    QCOMPARE(linked.status, 403);
    QCOMPARE(linked.json.value(QStringLiteral("field")).toString(), QStringLiteral("parent"));
    QCOMPARE(dispatch("cdt_unknown", R"({"key":"ZZ_CODES","body":"hi"})", audience).status, 401);
    QCOMPARE(owner("PATCH", QStringLiteral("/api/directory/ZZ_CODES"), R"({"target":"upper"})").status, 200);
    const HttpAnswer changed = dispatch(pinned, R"({"key":"ZZ_CODES","body":"hi"})", audience);
    QCOMPARE(changed.status, 409);
    QVERIFY(changed.json.value(QStringLiteral("error"))
                .toString()
                .startsWith(QLatin1String("contract_changed:")));
}

void TestDirectoryServer::accessLogHasNoSecrets()
{
    QCOMPARE(call("GET", QStringLiteral("/api/directory?q=hunter2-secret-query")).status, 200);
    QTRY_VERIFY((m_serverLog += m_server.readAllStandardError()).contains("GET /api/directory?q=…"));
    QVERIFY(m_serverLog.contains("POST /api/directory 201"));
    QVERIFY(m_serverLog.contains("POST /api/dispatch 401"));
    QVERIFY(!m_serverLog.contains(kOwnerKey));
    QVERIFY(!m_serverLog.contains("hunter2"));
    QVERIFY(!m_serverLog.contains("cdt_"));
    QVERIFY(!m_serverLog.contains("Echo the body"));
}

void TestDirectoryServer::idleConnectionsAreClosed()
{
    const QString db = m_dir.filePath(QStringLiteral("idle.db"));
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {QStringLiteral("init"), QStringLiteral("--db"), db})
                 .exitCode,
             0);
    ServeProcess served;
    QString error;
    QVERIFY2(served.start(db, kOwnerKey, &error, {QStringLiteral("--idle-timeout"), QStringLiteral("600")}),
             qPrintable(error));

    QTcpSocket silent;
    silent.connectToHost(QHostAddress::LocalHost, served.port());
    QVERIFY(silent.waitForConnected(5000));
    QTcpSocket trickling;
    trickling.connectToHost(QHostAddress::LocalHost, served.port());
    QVERIFY(trickling.waitForConnected(5000));
    trickling.write("GET /api/directory HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    QTcpSocket answered;
    answered.connectToHost(QHostAddress::LocalHost, served.port());
    QVERIFY(answered.waitForConnected(5000));
    answered.write("GET /api/directory HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(answered.bytesAvailable() > 0, 5000);
    QVERIFY(answered.readAll().startsWith("HTTP/1.1 200"));

    QElapsedTimer clock;
    clock.start();
    QTRY_COMPARE_WITH_TIMEOUT(silent.state(), QAbstractSocket::UnconnectedState, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(trickling.state(), QAbstractSocket::UnconnectedState, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(answered.state(), QAbstractSocket::UnconnectedState, 5000);
    QVERIFY2(clock.elapsed() < 4000, "idle connections were closed late");
    QVERIFY(served.isRunning());
}

void TestDirectoryServer::sigtermFinishesRunningDispatch()
{
    QCOMPARE(owner("POST", QStringLiteral("/api/directory"),
                   rowJson(QStringLiteral("ZZ_SLOW"), QStringLiteral("fn"), QStringLiteral("sleep_ms"),
                           QStringLiteral("Wait a while.")))
                 .status,
             201);
    QNetworkRequest request(QUrl(base() + QStringLiteral("/api/dispatch")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("x-terminal-key", kOwnerKey);
    QNetworkReply *slow = m_network.post(request, QByteArrayLiteral(R"({"key":"ZZ_SLOW","body":"1500"})"));
    QTest::qWait(400);
    QVERIFY(!slow->isFinished());
    m_server.terminate(); // SIGTERM
    QTRY_VERIFY_WITH_TIMEOUT(slow->isFinished(), 15000);
    QCOMPARE(slow->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    const QJsonObject response = QJsonDocument::fromJson(slow->readAll()).object();
    QCOMPARE(response.value(QStringLiteral("ok")), QJsonValue(true));
    QTRY_COMPARE_WITH_TIMEOUT(m_server.state(), QProcess::NotRunning, 10000);
    QCOMPARE(m_server.exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_server.exitCode(), 0);
    QVERIFY(m_server.readAllStandardError().contains("POST /api/dispatch 200"));
    // The receipt of the call that was running is committed.
    const QString id =
        response.value(QStringLiteral("proof")).toObject().value(QStringLiteral("invocation_id")).toString();
    const ProcessRun::Result confirm = ctl({QStringLiteral("confirm"), id, QStringLiteral("--db"), m_db});
    QCOMPARE(QJsonDocument::fromJson(confirm.out).object().value(QStringLiteral("confirmed")),
             QJsonValue(true));
}

void TestDirectoryServer::tlsKeepsTheLimits()
{
    TestCertificates certificates;
    QString error;
    QVERIFY2(certificates.create(&error), qPrintable(error));
    const QString db = m_dir.filePath(QStringLiteral("tls.db"));
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {QStringLiteral("init"), QStringLiteral("--db"), db})
                 .exitCode,
             0);
    ServeProcess served;
    served.setTls(certificates.certificateFile(TestCertificates::Server::Loopback),
                  certificates.keyFile(TestCertificates::Server::Loopback));
    QVERIFY2(served.start(db, kOwnerKey, &error, {QStringLiteral("--idle-timeout"), QStringLiteral("600")}),
             qPrintable(error));
    QCOMPARE(served.baseUrl().scheme(), QStringLiteral("https"));
    QSslConfiguration trusting = QSslConfiguration::defaultConfiguration();
    trusting.setCaCertificates(QSslCertificate::fromPath(certificates.caFile()));
    const auto connectEncrypted = [&](QSslSocket &socket) {
        socket.setSslConfiguration(trusting);
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), served.port());
        return socket.waitForEncrypted(5000);
    };

    QSslSocket answered;
    QVERIFY2(connectEncrypted(answered), qPrintable(answered.errorString()));
    answered.write("GET /api/directory HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(answered.bytesAvailable() > 0, 5000);
    QVERIFY(answered.readAll().startsWith("HTTP/1.1 200"));

    QSslSocket uploading;
    QVERIFY(connectEncrypted(uploading));
    const QByteArray refusal = uploadFarTooMuch(uploading);
    QVERIFY2(refusal.startsWith("HTTP/1.1 413"), refusal.left(200).constData());

    QSslSocket silent;
    QVERIFY(connectEncrypted(silent));
    QTcpSocket noHandshake; // connects and never says hello
    noHandshake.connectToHost(QHostAddress::LocalHost, served.port());
    QVERIFY(noHandshake.waitForConnected(5000));
    QElapsedTimer clock;
    clock.start();
    QTRY_COMPARE_WITH_TIMEOUT(silent.state(), QAbstractSocket::UnconnectedState, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(noHandshake.state(), QAbstractSocket::UnconnectedState, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(answered.state(), QAbstractSocket::UnconnectedState, 5000);
    QVERIFY2(clock.elapsed() < 4000, "idle connections were closed late");
    QVERIFY(served.isRunning());
}

void TestDirectoryServer::tlsStartupErrors_data()
{
    QTest::addColumn<QString>("certificate"); // empty: the option is left out
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("error");
    QTest::addRow("a certificate without its key") << QStringLiteral("loopback.pem") << QString()
                                                   << QStringLiteral("--tls-cert and --tls-key go together");
    QTest::addRow("a key without its certificate") << QString() << QStringLiteral("loopback.key")
                                                   << QStringLiteral("--tls-cert and --tls-key go together");
    QTest::addRow("no such certificate") << QStringLiteral("missing.pem") << QStringLiteral("loopback.key")
                                         << QStringLiteral("missing.pem cannot be read");
    QTest::addRow("another certificate's key")
        << QStringLiteral("loopback.pem") << QStringLiteral("other-host.key")
        << QStringLiteral("is not the key of the certificate");
    QTest::addRow("an expired certificate") << QStringLiteral("expired.pem") << QStringLiteral("expired.key")
                                            << QStringLiteral("expired.pem expired on");
}

void TestDirectoryServer::tlsStartupErrors()
{
    QFETCH(QString, certificate);
    QFETCH(QString, key);
    QFETCH(QString, error);
    TestCertificates certificates;
    QString why;
    QVERIFY2(certificates.create(&why), qPrintable(why));
    const QString folder = QFileInfo(certificates.caFile()).absolutePath();
    QStringList arguments{QStringLiteral("serve"), QStringLiteral("--db"), m_db, QStringLiteral("--listen"),
                          QStringLiteral("127.0.0.1:%1").arg(freePort())};
    if (!certificate.isEmpty())
        arguments << QStringLiteral("--tls-cert") << folder + u'/' + certificate;
    if (!key.isEmpty())
        arguments << QStringLiteral("--tls-key") << folder + u'/' + key;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("CAPDESK_TERMINAL_KEY"), QString::fromLatin1(kOwnerKey));
    const ProcessRun::Result run =
        ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), arguments, {}, environment, 20000);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(error.toUtf8()), run.err.constData());
    QVERIFY(!run.out.contains("listening"));
    for (const QString &name : {QStringLiteral("loopback.key"), QStringLiteral("other-host.key")}) {
        QFile file(folder + u'/' + name);
        QVERIFY(file.open(QIODevice::ReadOnly));
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (!line.startsWith("-----") && line.size() > 16)
                QVERIFY(!run.out.contains(line) && !run.err.contains(line));
        }
    }
}

QTEST_MAIN(TestDirectoryServer)
#include "tst_directoryserver.moc"
