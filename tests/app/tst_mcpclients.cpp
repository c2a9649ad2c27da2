#include "tests/app/ctltestsupport.h"
#include "tests/support/minimalserver.h"
#include "tests/support/processrun.h"
#include "tests/support/serveprocess.h"

#include <QFile>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using CtlTestSupport::ctl;

namespace {

constexpr int kPageSize = 7;

QJsonObject parse(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

} // namespace

// capdeskctl mcp as the official MCP clients from npm see it (tests/mcp, pinned by its
// lockfile): @modelcontextprotocol/sdk 1.x speaks 2025-11-25, @modelcontextprotocol/client
// 2.x speaks 2026-07-28. Each client lists every page, calls tools, and counts the
// list_changed a `capdeskctl put` from another process causes.
class TestMcpClients : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void aClientSeesAndCallsTheDirectory_data();
    void aClientSeesAndCallsTheDirectory();
    void aBridgeServesAPlainServer_data();
    void aBridgeServesAPlainServer();
    void stdoutHoldsOnlyJsonRpc();

private:
    QString m_node;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_db;
};

void TestMcpClients::initTestCase()
{
    m_node = QStandardPaths::findExecutable(u"node"_s);
    if (m_node.isEmpty())
        QFAIL("node is not installed: packaging/capdesk test installs nodejs and npm");
    if (!QFile::exists(
            QStringLiteral(MCP_CLIENTS_DIR "/node_modules/@modelcontextprotocol/sdk/package.json")))
        QFAIL("the MCP clients are not installed: run npm ci in tests/mcp (packaging/capdesk test does)");
}

void TestMcpClients::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_db = m_dir->filePath(u"d.db"_s);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, m_db}).exitCode, 0);
}

void TestMcpClients::aClientSeesAndCallsTheDirectory_data()
{
    QTest::addColumn<QString>("driver");
    QTest::addColumn<QString>("version");
    QTest::addColumn<bool>("http"); // serve's /mcp, else capdeskctl mcp on stdio

    QTest::addRow("sdk 1.x, 2025-11-25, stdio") << u"client-2025.mjs"_s << u"2025-11-25"_s << false;
    QTest::addRow("client 2.x, 2026-07-28, stdio") << u"client-2026.mjs"_s << u"2026-07-28"_s << false;
    QTest::addRow("sdk 1.x, 2025-11-25, serve /mcp") << u"client-2025.mjs"_s << u"2025-11-25"_s << true;
    QTest::addRow("client 2.x, 2026-07-28, serve /mcp") << u"client-2026.mjs"_s << u"2026-07-28"_s << true;
}

void TestMcpClients::aClientSeesAndCallsTheDirectory()
{
    QFETCH(QString, driver);
    QFETCH(QString, version);
    QFETCH(bool, http);

    // An http row calls an upstream in this test; a flow chains two fn rows.
    QHttpServer upstream;
    upstream.route(u"/v1/forecast"_s, [](const QHttpServerRequest &) {
        return QHttpServerResponse(QJsonObject{{u"current"_s, QJsonObject{{u"temperature_2m"_s, 15.7}}}});
    });
    const quint16 port = upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(port != 0);
    const QByteArray httpRow = uR"({"key":"ZZ_TEST_TEMPERATURE","type":"http",
        "target":"GET http://127.0.0.1:%1/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m",
        "content":"# WHAT: Current temperature\n# WHEN_TO_USE: tests\n# ARGS: $1=lat | $2=lon\n# EX: [ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]\n# OUTPUT: JSON"})"_s
                                   .arg(port)
                                   .toUtf8();
    const QByteArray flowRow =
        R"({"key":"ZZ_SHOUT_FLOW","type":"flow","content":)"
        R"("# WHAT: Shouts its text back.\n# WHEN_TO_USE: tests\n# ARGS: $1=text\n)"
        R"(# EX: [ZZ_SHOUT_FLOW]hi[/ZZ_SHOUT_FLOW]\n# OUTPUT: the text in capitals\nUPPERCASE:$1 > ECHO"})";
    for (const QByteArray &added : {httpRow, flowRow})
        QCOMPARE(ctl({u"put"_s, u"--db"_s, m_db}, added).exitCode, 0);
    const QJsonArray expected = parse(ctl({u"mcp-tools"_s, u"--db"_s, m_db}).out).value(u"tools"_s).toArray();
    QVERIFY(expected.size() > kPageSize);
    // A new row from another process, as an owner would add it.
    QJsonObject row = parse(ctl({u"get"_s, u"UPPERCASE"_s, u"--db"_s, m_db}).out);
    for (const QString &stamp : {u"seq"_s, u"created_at"_s, u"updated_at"_s})
        row.remove(stamp);
    row.insert(u"key"_s, u"MCP_NEW_ROW"_s);
    row.insert(u"content"_s, row.value(u"content"_s).toString().replace(u"UPPERCASE]"_s, u"MCP_NEW_ROW]"_s));
    const QString clientName = u"tst-"_s + version;
    ServeProcess serve;
    QJsonObject config{{u"clientName"_s, clientName}};
    if (http) {
        QString error;
        QVERIFY2(serve.start(m_db, CtlTestSupport::kServedKey, &error), qPrintable(error));
        config.insert(u"transport"_s, u"http"_s);
        config.insert(u"url"_s, serve.baseUrl().toString() + u"/mcp"_s);
        config.insert(u"headers"_s,
                      QJsonObject{{u"x-terminal-key"_s, QString::fromLatin1(CtlTestSupport::kServedKey)}});
    } else {
        config.insert(u"transport"_s, u"stdio"_s);
        config.insert(u"command"_s, QStringLiteral(CAPDESKCTL_PATH));
        config.insert(u"args"_s,
                      QJsonArray{u"mcp"_s, u"--db"_s, m_db, u"--page-size"_s, QString::number(kPageSize)});
    }
    config.insert(
        u"calls"_s,
        QJsonArray{
            QJsonObject{{u"name"_s, u"UPPERCASE"_s}, {u"arguments"_s, QJsonObject{{u"body"_s, u"mcp"_s}}}},
            QJsonObject{{u"name"_s, u"JSON_PICK"_s},
                        {u"arguments"_s, QJsonObject{{u"path"_s, u"a"_s}, {u"json"_s, u"not|json"_s}}}},
            QJsonObject{{u"name"_s, u"NO_SUCH_TOOL"_s}, {u"arguments"_s, QJsonObject()}},
            QJsonObject{{u"name"_s, u"UPPERCASE"_s}, {u"arguments"_s, QJsonObject{{u"text"_s, u"x"_s}}}},
            QJsonObject{{u"name"_s, u"ZZ_TEST_TEMPERATURE"_s},
                        {u"arguments"_s, QJsonObject{{u"body"_s, u"37.77|-122.42"_s}}}},
            QJsonObject{{u"name"_s, u"ZZ_SHOUT_FLOW"_s},
                        {u"arguments"_s, QJsonObject{{u"body"_s, u"hello"_s}}}}});
    // Another process writes the file, under the server as beside capdeskctl mcp.
    config.insert(u"trigger"_s, QJsonObject{{u"command"_s, QStringLiteral(CAPDESKCTL_PATH)},
                                            {u"args"_s, QJsonArray{u"put"_s, u"--db"_s, m_db}},
                                            {u"stdin"_s, QString::fromUtf8(QJsonDocument(row).toJson())}});
    config.insert(u"waitMs"_s, 2500);
    QFile file(m_dir->filePath(u"config.json"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(config).toJson());
    file.close();

    const ProcessRun::Result run =
        ProcessRun::run(m_node, {QStringLiteral(MCP_CLIENTS_DIR "/") + driver, file.fileName()}, {},
                        QProcessEnvironment::systemEnvironment(), 90000);
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    const QJsonObject report = parse(run.out);
    QCOMPARE(report.value(u"protocolVersion"_s).toString(), version);

    // tools/list is mcp-tools, page by page.
    QCOMPARE(report.value(u"tools"_s).toArray(), expected);
    const int pageSize = http ? 500 : kPageSize;
    QCOMPARE(report.value(u"pages"_s).toInt(), int((expected.size() + pageSize - 1) / pageSize));

    const QJsonArray calls = report.value(u"calls"_s).toArray();
    QCOMPARE(calls.size(), 6);
    const QJsonObject done = calls.at(0).toObject().value(u"result"_s).toObject();
    QCOMPARE(done.value(u"isError"_s), QJsonValue(false));
    QCOMPARE(done.value(u"content"_s).toArray().first().toObject().value(u"text"_s).toString(), u"MCP"_s);
    const QString id = done.value(u"_meta"_s).toObject().value(u"capdesk/invocation_id"_s).toString();
    const QJsonObject confirmed = parse(ctl({u"confirm"_s, id, u"--db"_s, m_db}).out);
    QCOMPARE(confirmed.value(u"confirmed"_s), QJsonValue(true));
    if (!http) {
        // The command _meta names runs as given, from any folder.
        const QString command = done.value(u"_meta"_s).toObject().value(u"capdesk/confirm"_s).toString();
        const ProcessRun::Result shell = ProcessRun::run(u"/bin/sh"_s, {u"-c"_s, u"cd / && "_s + command});
        QVERIFY2(parse(shell.out).value(u"confirmed"_s).toBool(), qPrintable(command));
    }
    const QJsonObject receipts = parse(ctl({u"receipts"_s, u"--key"_s, u"UPPERCASE"_s, u"--db"_s, m_db}).out);
    // Over HTTP a 2025 client names itself only in initialize, a request of its own: with no
    // session kept, its calls are the unnamed client's.
    const QString actor = http && version != "2026-07-28"_L1 ? u"mcp:unnamed"_s : u"mcp:"_s + clientName;
    QVERIFY2(QJsonDocument(receipts).toJson().contains(actor.toUtf8()), qPrintable(actor));

    const QJsonObject failed = calls.at(1).toObject().value(u"result"_s).toObject();
    QCOMPARE(failed.value(u"isError"_s), QJsonValue(true));
    QVERIFY(failed.value(u"content"_s)
                .toArray()
                .first()
                .toObject()
                .value(u"text"_s)
                .toString()
                .startsWith(u"ERR:"_s));
    QCOMPARE(calls.at(2).toObject().value(u"error"_s).toObject().value(u"code"_s).toInt(), -32602);
    const QJsonObject badArgument = calls.at(3).toObject().value(u"result"_s).toObject();
    QCOMPARE(badArgument.value(u"isError"_s), QJsonValue(true));

    const QJsonObject weather = calls.at(4).toObject().value(u"result"_s).toObject();
    QCOMPARE(weather.value(u"isError"_s), QJsonValue(false));
    QCOMPARE(weather.value(u"content"_s).toArray().first().toObject().value(u"text"_s).toString(),
             uR"(HTTP 200:{"current":{"temperature_2m":15.7}})"_s);
    const QJsonObject shouted = calls.at(5).toObject().value(u"result"_s).toObject();
    QCOMPARE(shouted.value(u"isError"_s), QJsonValue(false));
    QCOMPARE(shouted.value(u"content"_s).toArray().first().toObject().value(u"text"_s).toString(),
             u"HELLO"_s);

    // One list_changed for the put, none while nothing changed, and the new row listed.
    QCOMPARE(report.value(u"triggerExit"_s).toInt(), 0);
    QCOMPARE(report.value(u"quietNotifications"_s).toInt(), 0);
    QCOMPARE(report.value(u"listChanged"_s).toInt(), 1);
    QCOMPARE(report.value(u"toolsAfter"_s).toInt(), expected.size() + 1);
    QVERIFY(report.value(u"toolsAfterNames"_s).toArray().contains(u"MCP_NEW_ROW"_s));

    // The server's log (stderr) names each method: the 2026 client never initializes.
    const bool stateless = version == "2026-07-28"_L1;
    const QByteArray log = http ? serve.standardError() : run.err;
    const QByteArray prefix = http ? "capdeskctl serve: mcp " : "capdeskctl mcp: ";
    QCOMPARE(log.contains(prefix + "initialize"), !stateless);
    QCOMPARE(log.contains(prefix + "subscriptions/listen"), stateless);
    if (http)
        QCOMPARE(log.contains(prefix + "server/discover"), stateless);
}

void TestMcpClients::aBridgeServesAPlainServer_data()
{
    QTest::addColumn<QString>("driver");

    QTest::addRow("sdk 1.x") << u"client-2025.mjs"_s;
    QTest::addRow("client 2.x") << u"client-2026.mjs"_s;
}

// capdeskctl mcp --server in front of a server with only SPEC §10's table: its rows are
// the tools, its dispatch runs the calls (the bridge names the client in Capdesk-Actor,
// which such a server ignores), and a row added there reaches the client by polling.
void TestMcpClients::aBridgeServesAPlainServer()
{
    QFETCH(QString, driver);

    const QByteArray key = CtlTestSupport::kServedKey;
    MinimalServer server(key);
    QString error;
    QVERIFY2(server.listen(&error), qPrintable(error));
    const QString url = server.baseUrl().toString();
    const auto echoRow = [](const QString &rowKey) {
        return QJsonDocument(QJsonObject{{u"key"_s, rowKey},
                                         {u"type"_s, u"fn"_s},
                                         {u"target"_s, u"echo"_s},
                                         {u"content"_s, u"# WHAT: Echoes its body.\n[\"$1\"]"_s}})
            .toJson();
    };
    for (const QString &rowKey : {u"ZZ_ECHO"_s, u"ZZ_OTHER"_s})
        QCOMPARE(CtlTestSupport::ctlWithKey({u"put"_s, u"--server"_s, url}, key, echoRow(rowKey)).exitCode,
                 0);

    const QJsonObject config{
        {u"transport"_s, u"stdio"_s},
        {u"command"_s, QStringLiteral(CAPDESKCTL_PATH)},
        {u"args"_s, QJsonArray{u"mcp"_s, u"--server"_s, url}},
        {u"clientName"_s, u"tst-bridge"_s},
        {u"calls"_s,
         QJsonArray{QJsonObject{{u"name"_s, u"ZZ_ECHO"_s},
                                {u"arguments"_s, QJsonObject{{u"body"_s, u"over the bridge"_s}}}}}},
        {u"trigger"_s, QJsonObject{{u"command"_s, QStringLiteral(CAPDESKCTL_PATH)},
                                   {u"args"_s, QJsonArray{u"put"_s, u"--server"_s, url}},
                                   {u"stdin"_s, QString::fromUtf8(echoRow(u"ZZ_NEW"_s))}}},
        {u"waitMs"_s, 3500}};
    QFile file(m_dir->filePath(u"bridge.json"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(config).toJson());
    file.close();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"CAPDESK_TERMINAL_KEY"_s, QString::fromLatin1(key));
    const ProcessRun::Result run = ProcessRun::run(
        m_node, {QStringLiteral(MCP_CLIENTS_DIR "/") + driver, file.fileName()}, {}, environment, 90000);
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    const QJsonObject report = parse(run.out);

    QStringList names;
    for (const QJsonValue &tool : report.value(u"tools"_s).toArray())
        names.append(tool.toObject().value(u"name"_s).toString());
    QCOMPARE(names, (QStringList{u"ZZ_ECHO"_s, u"ZZ_OTHER"_s}));
    const QJsonObject result =
        report.value(u"calls"_s).toArray().first().toObject().value(u"result"_s).toObject();
    QCOMPARE(result.value(u"isError"_s), QJsonValue(false));
    QCOMPARE(result.value(u"content"_s).toArray().first().toObject().value(u"text"_s).toString(),
             u"over the bridge"_s);
    // The server keeps the receipt; the link is its SPEC §10 confirm.
    QCOMPARE(result.value(u"_meta"_s).toObject().value(u"capdesk/receipt"_s).toString(),
             url + u"/api/dispatch?confirm="_s
                 + result.value(u"_meta"_s).toObject().value(u"capdesk/invocation_id"_s).toString());

    const QList<MinimalServer::Request> dispatched = server.requests("POST", u"/api/dispatch"_s);
    QCOMPARE(dispatched.size(), 1);
    QVERIFY(dispatched.first().hadOwnerKey);
    QCOMPARE(dispatched.first().header("capdesk-actor"), QByteArray("mcp:tst-bridge"));

    QCOMPARE(report.value(u"triggerExit"_s).toInt(), 0);
    QCOMPARE(report.value(u"quietNotifications"_s).toInt(), 0);
    QCOMPARE(report.value(u"listChanged"_s).toInt(), 1);
    QCOMPARE(report.value(u"toolsAfter"_s).toInt(), 3);
}

// Every stdout line parses as one JSON-RPC message, even while the process has things to
// say: a directory with lint findings, no keychain, junk and an oversized line.
void TestMcpClients::stdoutHoldsOnlyJsonRpc()
{
    QByteArray input;
    input += R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})"
             "\n";
    input += "not json\n";
    input += QByteArray(5 * 1024 * 1024, 'x') + "\n";
    input += R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})"
             "\n";
    input +=
        R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"NOW","arguments":{"body":""}}})"
        "\n";
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(u"DBUS_SESSION_BUS_ADDRESS"_s);
    environment.insert(u"HOME"_s, m_dir->path());
    const ProcessRun::Result run =
        ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), {u"mcp"_s, u"--db"_s, m_db}, input, environment);
    QVERIFY(run.finished);
    QCOMPARE(run.exitCode, 0);
    QList<int> ids;
    for (const QByteArray &line : run.out.split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonParseError error{};
        const QJsonObject message = QJsonDocument::fromJson(line, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, line.left(200).constData());
        QCOMPARE(message.value(u"jsonrpc"_s).toString(), u"2.0"_s);
        ids.append(message.value(u"id"_s).toInt(-1));
    }
    // Answers for 1, the junk (id null), 2 and 3; the oversized line is dropped and logged.
    QCOMPARE(ids.size(), 4);
    QVERIFY(ids.contains(1) && ids.contains(2) && ids.contains(3));
    QVERIFY(run.err.contains("dropped a message of"));
}

QTEST_GUILESS_MAIN(TestMcpClients)
#include "tst_mcpclients.moc"
