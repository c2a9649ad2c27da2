#include "tests/support/processrun.h"
#include "tests/support/serveprocess.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace {

using Headers = QList<std::pair<QByteArray, QByteArray>>;

const QByteArray kOwnerKey = QByteArrayLiteral("tst-mcp-owner-key-7f3a1c9e5b2d");

struct Answer
{
    int status = 0;
    QByteArray body;
    QJsonObject json;
};

QByteArray rpc(const QString &method, const QJsonObject &params = {}, bool stateless = false, int id = 1)
{
    QJsonObject withMeta = params;
    if (stateless)
        withMeta.insert(u"_meta"_s,
                        QJsonObject{{u"io.modelcontextprotocol/protocolVersion"_s, u"2026-07-28"_s},
                                    {u"io.modelcontextprotocol/clientCapabilities"_s, QJsonObject()}});
    return QJsonDocument(
               QJsonObject{
                   {u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"method"_s, method}, {u"params"_s, withMeta}})
        .toJson(QJsonDocument::Compact);
}

// The data: lines of an event stream read so far, each a JSON-RPC message.
QList<QJsonObject> eventsOf(const QByteArray &stream)
{
    QList<QJsonObject> events;
    for (const QByteArray &line : stream.split('\n')) {
        if (line.startsWith("data: "))
            events.append(QJsonDocument::fromJson(line.mid(6)).object());
    }
    return events;
}

int countMethod(const QList<QJsonObject> &events, const QString &method)
{
    return int(std::count_if(events.cbegin(), events.cend(), [&method](const QJsonObject &event) {
        return event.value(u"method"_s) == method;
    }));
}

} // namespace

// /mcp on a real `capdeskctl serve`: who may use it, what a token sees, and the event
// streams of both eras, each told once per change that concerns it.
class TestMcpEndpoint : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void refusals_data();
    void refusals();
    void aTokenSeesOnlyItsRows();
    void theOwnerMayNameAnMcpClientAsActor_data();
    void theOwnerMayNameAnMcpClientAsActor();
    void streamsHearEachChangeThatConcernsThemOnce();

private:
    Answer post(const QByteArray &body, const Headers &headers, const QString &path = u"/mcp"_s);
    QNetworkReply *openStream(const QByteArray &verb, const QByteArray &body, const Headers &headers);
    QString url() const { return m_serve.baseUrl().toString() + u"/mcp"_s; }
    ProcessRun::Result ctl(const QStringList &arguments, const QByteArray &input = {});
    // The row as stored with its description changed: a change every tool list shows.
    QByteArray describedAgain(const QString &key);

    QTemporaryDir m_dir;
    QString m_db;
    QByteArray m_token;
    ServeProcess m_serve;
    QNetworkAccessManager m_network;
};

ProcessRun::Result TestMcpEndpoint::ctl(const QStringList &arguments, const QByteArray &input)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"CAPDESK_TERMINAL_KEY"_s, QString::fromLatin1(kOwnerKey));
    return ProcessRun::run(ServeProcess::program(), arguments, input, environment);
}

QByteArray TestMcpEndpoint::describedAgain(const QString &key)
{
    QJsonObject row = QJsonDocument::fromJson(ctl({u"get"_s, key, u"--db"_s, m_db}).out).object();
    row.insert(u"content"_s, row.value(u"content"_s).toString().replace(u"# WHAT:"_s, u"# WHAT: (edited)"_s));
    return QJsonDocument(row).toJson();
}

void TestMcpEndpoint::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(u"served.db"_s);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, m_db}).exitCode, 0);
    const ProcessRun::Result minted = ctl(
        {u"token"_s, u"create"_s, u"--db"_s, m_db, u"--audience"_s, u"tests"_s, u"--keys"_s, u"UPPERCASE"_s});
    m_token = QJsonDocument::fromJson(minted.out).object().value(u"value"_s).toString().toUtf8();
    QVERIFY(!m_token.isEmpty());
    QString error;
    QVERIFY2(m_serve.start(m_db, kOwnerKey, &error, {u"--allow-origin"_s, u"https://allowed.example:8443"_s}),
             qPrintable(error));
}

void TestMcpEndpoint::cleanupTestCase()
{
    m_serve.stop();
}

Answer TestMcpEndpoint::post(const QByteArray &body, const Headers &headers, const QString &path)
{
    QNetworkRequest request{QUrl(m_serve.baseUrl().toString() + path)};
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "application/json, text/event-stream");
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    QNetworkReply *reply = m_network.post(request, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(20000);
    Answer answer{reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll(), {}};
    answer.json = QJsonDocument::fromJson(answer.body).object();
    reply->deleteLater();
    return answer;
}

QNetworkReply *TestMcpEndpoint::openStream(const QByteArray &verb, const QByteArray &body,
                                           const Headers &headers)
{
    QNetworkRequest request{QUrl(url())};
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "text/event-stream");
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    return m_network.sendCustomRequest(request, verb, body);
}

void TestMcpEndpoint::refusals_data()
{
    QTest::addColumn<Headers>("headers");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("says");

    const std::pair<QByteArray, QByteArray> owner{"x-terminal-key", kOwnerKey};
    const QByteArray ping = rpc(u"ping"_s);
    QTest::addRow("no key: 401") << Headers() << ping << 401 << u"unauthorized"_s;
    QTest::addRow("a wrong key: 401")
        << Headers{{"x-terminal-key", "nope-nope-nope-nope-nope"}} << ping << 401 << u"unauthorized"_s;
    QTest::addRow("an unknown token: 401")
        << Headers{{"Authorization", "Bearer cdt_unknown"}} << ping << 401 << QString();
    QTest::addRow("another origin: 403") << Headers{owner, {"Origin", "http://evil.example"}} << ping << 403
                                         << u"Origin http://evil.example may not use /mcp"_s;
    QTest::addRow("another origin, no key: 403 before 401")
        << Headers{{"Origin", "http://evil.example"}} << ping << 403 << u"Origin"_s;
    QTest::addRow("an object id: 400")
        << Headers{owner} << QByteArray(R"({"jsonrpc":"2.0","id":{},"method":"ping"})") << 400 << u"-32600"_s;
    QTest::addRow("listen naming no notifications: 400")
        << Headers{owner} << rpc(u"subscriptions/listen"_s, {}, true) << 400 << u"-32602"_s;
    QTest::addRow("loopback on another port: 403")
        << Headers{owner, {"Origin", "http://127.0.0.1:1"}} << ping << 403 << u"Origin"_s;
    QTest::addRow("an allowed origin")
        << Headers{owner, {"Origin", "https://allowed.example:8443"}} << ping << 200 << QString();
    QTest::addRow("an unknown protocol version: 400")
        << Headers{owner, {"MCP-Protocol-Version", "1999-01-01"}} << ping << 400 << QString();
    QTest::addRow("a malformed protocol version: 400")
        << Headers{owner, {"MCP-Protocol-Version", "x\"y"}} << ping << 400 << QString();
    QTest::addRow("Mcp-Method against the body: 400")
        << Headers{owner, {"Mcp-Method", "tools/list"}} << ping << 400 << QString();
    QTest::addRow("Mcp-Name against the body: 400")
        << Headers{owner, {"Mcp-Method", "tools/call"}, {"Mcp-Name", "NOW"}}
        << rpc(u"tools/call"_s,
               {{u"name"_s, u"UPPERCASE"_s}, {u"arguments"_s, QJsonObject{{u"body"_s, u"x"_s}}}})
        << 400 << QString();
    QTest::addRow("base64 Mcp-Name matching the body")
        << Headers{owner, {"Mcp-Method", "tools/call"}, {"Mcp-Name", "=?base64?VVBQRVJDQVNF?="}}
        << rpc(u"tools/call"_s,
               {{u"name"_s, u"UPPERCASE"_s}, {u"arguments"_s, QJsonObject{{u"body"_s, u"x"_s}}}})
        << 200 << QString();
    QTest::addRow("a batch: 400") << Headers{owner} << QByteArray("[") + ping + "]" << 400 << QString();
    QTest::addRow("a notification: 202")
        << Headers{owner} << QByteArray(R"({"jsonrpc":"2.0","method":"notifications/initialized"})") << 202
        << QString();
    QTest::addRow("listen without 2026 _meta: 400")
        << Headers{owner} << rpc(u"subscriptions/listen"_s, {{u"notifications"_s, QJsonObject()}}) << 400
        << QString();
}

void TestMcpEndpoint::refusals()
{
    QFETCH(Headers, headers);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, says);

    const Answer answer = post(body, headers);
    QCOMPARE(answer.status, status);
    if (!says.isEmpty())
        QVERIFY2(answer.body.contains(says.toUtf8()), answer.body.constData());
}

void TestMcpEndpoint::aTokenSeesOnlyItsRows()
{
    const Headers token{{"Authorization", "Bearer " + m_token}, {"x-capability-audience", "tests"}};
    const Answer listed = post(rpc(u"tools/list"_s, {}, true), token);
    QCOMPARE(listed.status, 200);
    const QJsonObject result = listed.json.value(u"result"_s).toObject();
    QCOMPARE(result.value(u"tools"_s).toArray().size(), 1);
    QCOMPARE(result.value(u"tools"_s).toArray().first().toObject().value(u"name"_s).toString(),
             u"UPPERCASE"_s);
    QCOMPARE(result.value(u"cacheScope"_s).toString(), u"private"_s);
    const Answer called = post(
        rpc(u"tools/call"_s,
            {{u"name"_s, u"UPPERCASE"_s}, {u"arguments"_s, QJsonObject{{u"body"_s, u"scoped"_s}}}}, true),
        token);
    QCOMPARE(called.json.value(u"result"_s)
                 .toObject()
                 .value(u"content"_s)
                 .toArray()
                 .first()
                 .toObject()
                 .value(u"text"_s)
                 .toString(),
             u"SCOPED"_s);
    const Answer outside =
        post(rpc(u"tools/call"_s, {{u"name"_s, u"NOW"_s}, {u"arguments"_s, QJsonObject{{u"body"_s, u""_s}}}},
                 true),
             token);
    QCOMPARE(outside.json.value(u"error"_s).toObject().value(u"code"_s).toInt(), -32602);
}

void TestMcpEndpoint::theOwnerMayNameAnMcpClientAsActor_data()
{
    QTest::addColumn<QByteArray>("actor");
    QTest::addColumn<bool>("asOwner");
    QTest::addColumn<int>("status");

    QTest::addRow("owner, an MCP client") << QByteArray("mcp:claude-desktop") << true << 200;
    QTest::addRow("owner, not an MCP actor") << QByteArray("owner:local") << true << 400;
    QTest::addRow("owner, too long") << QByteArray("mcp:") + QByteArray(65, 'a') << true << 400;
    QTest::addRow("owner, a space") << QByteArray("mcp:a b") << true << 400;
    QTest::addRow("keyless") << QByteArray("mcp:claude-desktop") << false << 401;
}

// Capdesk-Actor on POST /api/dispatch (capdeskctl mcp --server): the owner's call recorded
// as the MCP client's.
void TestMcpEndpoint::theOwnerMayNameAnMcpClientAsActor()
{
    QFETCH(QByteArray, actor);
    QFETCH(bool, asOwner);
    QFETCH(int, status);

    Headers headers{{"Capdesk-Actor", actor}};
    if (asOwner)
        headers.append({"x-terminal-key", kOwnerKey});
    const Answer answer = post(R"({"key":"UPPERCASE","body":"hi"})", headers, u"/api/dispatch"_s);
    QCOMPARE(answer.status, status);
    if (status != 200) {
        QVERIFY2(answer.body.contains("Capdesk-Actor") || status == 401, answer.body.constData());
        return;
    }
    const QString id = answer.json.value(u"proof"_s).toObject().value(u"invocation_id"_s).toString();
    const QJsonObject confirmed =
        QJsonDocument::fromJson(ctl({u"confirm"_s, id, u"--db"_s, m_db}).out).object();
    QCOMPARE(confirmed.value(u"receipt"_s).toObject().value(u"actor"_s).toString(), QString::fromUtf8(actor));
}

void TestMcpEndpoint::streamsHearEachChangeThatConcernsThemOnce()
{
    const Headers owner{{"x-terminal-key", kOwnerKey}};
    const Headers token{{"Authorization", "Bearer " + m_token}, {"x-capability-audience", "tests"}};
    QNetworkReply *ownerStream = openStream("GET", {}, owner);
    QNetworkReply *tokenStream =
        openStream("POST",
                   rpc(u"subscriptions/listen"_s,
                       {{u"notifications"_s, QJsonObject{{u"toolsListChanged"_s, true}}}}, true, 7),
                   token);
    QByteArray ownerSaw;
    QByteArray tokenSaw;
    connect(ownerStream, &QIODevice::readyRead, this, [&] { ownerSaw += ownerStream->readAll(); });
    connect(tokenStream, &QIODevice::readyRead, this, [&] { tokenSaw += tokenStream->readAll(); });
    QTRY_COMPARE_WITH_TIMEOUT(countMethod(eventsOf(tokenSaw), u"notifications/subscriptions/acknowledged"_s),
                              1, 10000);
    QCOMPARE(ownerStream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QVERIFY(ownerStream->header(QNetworkRequest::ContentTypeHeader)
                .toString()
                .startsWith(u"text/event-stream"_s));
    const QJsonObject ack = eventsOf(tokenSaw).first();
    QCOMPARE(ack.value(u"params"_s)
                 .toObject()
                 .value(u"_meta"_s)
                 .toObject()
                 .value(u"io.modelcontextprotocol/subscriptionId"_s)
                 .toInt(),
             7);

    // Nothing changed: nothing is said (a receipt is no change).
    QCOMPARE(ctl({u"invoke"_s, u"UPPERCASE"_s, u"quiet"_s, u"--db"_s, m_db}).exitCode, 0);
    QTest::qWait(1500);
    QCOMPARE(countMethod(eventsOf(ownerSaw), u"notifications/tools/list_changed"_s), 0);

    // A row outside the token's scope: the owner hears of it once, the token not at all.
    QCOMPARE(
        ctl({u"put"_s, u"--server"_s, m_serve.baseUrl().toString()}, describedAgain(u"LOWERCASE"_s)).exitCode,
        0);
    QTRY_COMPARE_WITH_TIMEOUT(countMethod(eventsOf(ownerSaw), u"notifications/tools/list_changed"_s), 1,
                              5000);
    QTest::qWait(1000);
    QCOMPARE(countMethod(eventsOf(ownerSaw), u"notifications/tools/list_changed"_s), 1);
    QCOMPARE(countMethod(eventsOf(tokenSaw), u"notifications/tools/list_changed"_s), 0);

    // A row in its scope, changed by another process on the file: both hear of it once,
    // the token's tagged with its subscription.
    QCOMPARE(ctl({u"put"_s, u"--db"_s, m_db}, describedAgain(u"UPPERCASE"_s)).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(countMethod(eventsOf(tokenSaw), u"notifications/tools/list_changed"_s), 1,
                              5000);
    QTRY_COMPARE_WITH_TIMEOUT(countMethod(eventsOf(ownerSaw), u"notifications/tools/list_changed"_s), 2,
                              5000);
    const QList<QJsonObject> heard = eventsOf(tokenSaw);
    QCOMPARE(heard.last()
                 .value(u"params"_s)
                 .toObject()
                 .value(u"_meta"_s)
                 .toObject()
                 .value(u"io.modelcontextprotocol/subscriptionId"_s)
                 .toInt(),
             7);
    ownerStream->abort();
    tokenStream->abort();
    ownerStream->deleteLater();
    tokenStream->deleteLater();
}

QTEST_GUILESS_MAIN(TestMcpEndpoint)
#include "tst_mcpendpoint.moc"
