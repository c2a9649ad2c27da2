#include "dispatch/runners/agentrunner.h"
#include "dispatch/runners/httpclient.h"
#include "dispatch/secrets/secretsource.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/templates/templatecontext.h"

#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace Qt::StringLiterals;

// SPEC §3 agent against an in-test OpenAI-compatible server on 127.0.0.1: the composed
// system prompt (includes in order, recursively, cycle-checked), the user message, the
// model, auth, the endpoint choice and its environment override, and shape mode.
class TestAgentRunner : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void composeSystemPrompt_data();
    void composeSystemPrompt();
    void call();
    void failures_data();
    void failures();
    void environmentOverridesEndpoints();
    void shape();
    void endpointGlobs_data();
    void endpointGlobs();

private:
    Row row(const QString &key) const { return m_store->row(key).value(); }
    RunResult runAndWait(const QString &key, const QString &body, bool shape = false);

    QTemporaryDir m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    QHttpServer m_server;
    quint16 m_port = 0;
    int m_requests = 0;
    QString m_path;
    QString m_authorization;
    QJsonObject m_chat;
    HttpClient m_client;
    std::optional<AgentRunner> m_runner;
};

namespace {

class FixedSecrets final : public SecretSource
{
public:
    Lookup lookup(const QString &name) const override
    {
        return name == u"TOKEN"_s ? Lookup{Origin::Environment, u"s3cr3t"_s} : Lookup{};
    }
};

const FixedSecrets secrets;

QJsonObject reply(const QString &text)
{
    const QJsonObject message{{u"role"_s, u"assistant"_s}, {u"content"_s, text}};
    return {{u"choices"_s, QJsonArray{QJsonObject{{u"index"_s, 0}, {u"message"_s, message}}}}};
}

} // namespace

void TestAgentRunner::initTestCase()
{
    QVERIFY(m_dir.isValid());
    auto opened = SqlDirectoryStore::open(m_dir.filePath(u"dir.sqlite"_s));
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();

    // key, type, target, auth, includes, content
    const QList<QStringList> rows{
        {u"VOICE"_s, u"agent"_s, u"test-1"_s, {}, {}, u"# WHAT: the voice block\nBe warm."_s},
        {u"STYLE"_s, u"agent"_s, u"test-1"_s, {}, u"VOICE"_s, u"Short sentences."_s},
        {u"EMOJI"_s, u"agent"_s, u"test-1"_s, {}, {}, u"No emoji."_s},
        {u"DOCS_ONLY"_s, u"agent"_s, u"test-1"_s, {}, {}, u"# WHAT: nothing but docs"_s},
        {u"ROUTER"_s, u"agent"_s, u"test-1"_s, u"bearer:TOKEN"_s, u"STYLE, EMOJI,DOCS_ONLY"_s,
         u"# WHAT: routes\nYou route.\nSecond line."_s},
        {u"DIAMOND"_s, u"agent"_s, u"test-1"_s, {}, u"STYLE,VOICE"_s, u"D."_s},
        {u"PLAIN"_s, u"agent"_s, u"test-1"_s, {}, {}, u"Only me."_s},
        {u"CYC_A"_s, u"agent"_s, u"test-1"_s, {}, u"CYC_B"_s, u"A."_s},
        {u"CYC_B"_s, u"agent"_s, u"test-1"_s, {}, u"EMOJI,CYC_A"_s, u"B."_s},
        {u"SELF"_s, u"agent"_s, u"test-1"_s, {}, u"SELF"_s, u"S."_s},
        {u"MISSING"_s, u"agent"_s, u"test-1"_s, {}, u"EMOJI,GHOST"_s, u"M."_s},
        {u"UNKNOWN_MODEL"_s, u"agent"_s, u"other-9"_s, {}, {}, u"U."_s},
        {u"BUSY"_s, u"agent"_s, u"busy-1"_s, {}, {}, u"B."_s},
        {u"GARBLED"_s, u"agent"_s, u"garbled-1"_s, {}, {}, u"G."_s},
    };
    QList<Row> toImport;
    for (const QStringList &fields : rows) {
        Row r;
        r.key = fields[0];
        r.type = fields[1];
        r.target = fields[2];
        r.auth = fields[3];
        r.includes = fields[4];
        r.content = fields[5];
        r.updatedAt = u"2026-01-01T00:00:00.000Z"_s;
        toImport << r;
    }
    const StoreError imported = m_store->importRows(toImport);
    QVERIFY2(!imported.isError(), qPrintable(imported.message));

    const auto record = [this](const QHttpServerRequest &request) {
        ++m_requests;
        m_path = request.url().path();
        m_authorization = QString::fromUtf8(request.value("authorization"));
        m_chat = QJsonDocument::fromJson(request.body()).object();
    };
    m_server.route(u"/v1/chat/completions"_s, QHttpServerRequest::Method::Post,
                   [record](const QHttpServerRequest &request) {
                       record(request);
                       return QHttpServerResponse(reply(u"hello from model"_s));
                   });
    m_server.route(u"/alt/chat/completions"_s, QHttpServerRequest::Method::Post,
                   [record](const QHttpServerRequest &request) {
                       record(request);
                       return QHttpServerResponse(reply(u"hello from alt"_s));
                   });
    m_server.route(u"/busy/chat/completions"_s, [record](const QHttpServerRequest &request) {
        record(request);
        return QHttpServerResponse(QByteArrayLiteral("text/plain"), QByteArrayLiteral("slow down"),
                                   QHttpServerResponder::StatusCode::TooManyRequests);
    });
    m_server.route(u"/garbled/chat/completions"_s, [record](const QHttpServerRequest &request) {
        record(request);
        return QHttpServerResponse(QJsonObject{{u"choices"_s, QJsonArray()}});
    });
    m_port = quint16(m_server.listen(QHostAddress::LocalHost, 0));
    QVERIFY(m_port != 0);

    const QString base = u"http://127.0.0.1:%1"_s.arg(m_port);
    m_runner.emplace(m_client, AgentEndpoints({{u"test-*"_s, QUrl(base + u"/v1/"_s)},
                                               {u"busy-*"_s, QUrl(base + u"/busy"_s)},
                                               {u"garbled-*"_s, QUrl(base + u"/garbled"_s)}}));
}

void TestAgentRunner::init()
{
    qunsetenv("CAPDESK_AGENT_BASE_URL");
    m_path.clear();
    m_authorization.clear();
    m_chat = {};
}

RunResult TestAgentRunner::runAndWait(const QString &key, const QString &body, bool shape)
{
    RunContext ctx;
    ctx.row = row(key);
    ctx.body = body;
    ctx.args = TemplateContext::splitBody(body);
    ctx.shape = shape;
    ctx.store = m_store.get();
    ctx.secrets = &secrets;
    std::optional<RunResult> result;
    m_runner->run(ctx, [&](RunResult r) { result = std::move(r); });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 20000))
        return RunResult::failure(u"test: the runner never called done"_s);
    return *result;
}

void TestAgentRunner::composeSystemPrompt_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("prompt");
    QTest::addColumn<QString>("error");

    QTest::addRow("no includes") << u"PLAIN"_s << u"Only me."_s << QString();
    QTest::addRow("includes in order, recursively, docs stripped, empty payloads skipped")
        << u"ROUTER"_s << u"Be warm.\n\nShort sentences.\n\nNo emoji.\n\nYou route.\nSecond line."_s
        << QString();
    QTest::addRow("a block reached twice appears once")
        << u"DIAMOND"_s << u"Be warm.\n\nShort sentences.\n\nD."_s << QString();
    QTest::addRow("cycle") << u"CYC_A"_s << QString() << u"ERR: includes cycle: CYC_A > CYC_B > CYC_A"_s;
    QTest::addRow("cycle entered from a member")
        << u"CYC_B"_s << QString() << u"ERR: includes cycle: CYC_B > CYC_A > CYC_B"_s;
    QTest::addRow("self include") << u"SELF"_s << QString() << u"ERR: includes cycle: SELF > SELF"_s;
    QTest::addRow("missing include") << u"MISSING"_s << QString() << u"ERR: include GHOST not found"_s;
}

void TestAgentRunner::composeSystemPrompt()
{
    QFETCH(QString, key);
    const AgentRunner::Prompt prompt = AgentRunner::composeSystemPrompt(row(key), m_store.get());
    QTEST(prompt.text, "prompt");
    QTEST(prompt.error, "error");
}

void TestAgentRunner::call()
{
    const RunResult result = runAndWait(u"ROUTER"_s, u"hi | there"_s);
    QCOMPARE(result.output, u"hello from model"_s);
    QCOMPARE(m_path, u"/v1/chat/completions"_s);
    QCOMPARE(m_authorization, u"Bearer s3cr3t"_s);
    const QJsonArray messages{
        QJsonObject{
            {u"role"_s, u"system"_s},
            {u"content"_s, u"Be warm.\n\nShort sentences.\n\nNo emoji.\n\nYou route.\nSecond line."_s}},
        QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"hi | there"_s}}};
    QCOMPARE(m_chat, (QJsonObject{{u"model"_s, u"test-1"_s}, {u"messages"_s, messages}}));
}

void TestAgentRunner::failures_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("output");
    QTest::addColumn<bool>("contacted");

    QTest::addRow("cycle sends nothing")
        << u"CYC_A"_s << u"ERR: includes cycle: CYC_A > CYC_B > CYC_A"_s << false;
    QTest::addRow("missing include sends nothing")
        << u"MISSING"_s << u"ERR: include GHOST not found"_s << false;
    QTest::addRow("unknown model") << u"UNKNOWN_MODEL"_s << u"ERR: no endpoint configured for model other-9"_s
                                   << false;
    QTest::addRow("HTTP 429") << u"BUSY"_s << u"ERR: HTTP 429:slow down"_s << true;
    QTest::addRow("malformed response")
        << u"GARBLED"_s << u"ERR: malformed chat response: no choices[0].message.content text"_s << true;
}

void TestAgentRunner::failures()
{
    QFETCH(QString, key);
    QFETCH(bool, contacted);
    const int before = m_requests;
    QTEST(runAndWait(key, u"x"_s).output, "output");
    QCOMPARE(m_requests != before, contacted);
}

void TestAgentRunner::environmentOverridesEndpoints()
{
    qputenv("CAPDESK_AGENT_BASE_URL", u"http://127.0.0.1:%1/alt/"_s.arg(m_port).toUtf8());
    QCOMPARE(runAndWait(u"UNKNOWN_MODEL"_s, u"q"_s).output, u"hello from alt"_s);
    QCOMPARE(m_path, u"/alt/chat/completions"_s);
    QCOMPARE(m_chat.value(u"model"_s).toString(), u"other-9"_s);
    QCOMPARE(runAndWait(u"PLAIN"_s, u"q"_s).output, u"hello from alt"_s);
}

void TestAgentRunner::shape()
{
    const int before = m_requests;
    const RunResult result = runAndWait(u"ROUTER"_s, u"my key is s3cr3t"_s, true);
    QCOMPARE(result.output, QString());
    QCOMPARE(result.shapeRequest.value(u"method"_s).toString(), u"POST"_s);
    QCOMPARE(result.shapeRequest.value(u"url"_s).toString(),
             u"http://127.0.0.1:%1/v1/chat/completions"_s.arg(m_port));
    QCOMPARE(
        result.shapeRequest.value(u"headers"_s).toObject(),
        (QJsonObject{{u"Content-Type"_s, u"application/json"_s}, {u"Authorization"_s, u"[redacted]"_s}}));
    const QJsonObject body = result.shapeRequest.value(u"body"_s).toObject();
    QCOMPARE(body.value(u"model"_s).toString(), u"test-1"_s);
    const QJsonArray messages = body.value(u"messages"_s).toArray();
    QCOMPARE(messages.at(0).toObject().value(u"content"_s).toString(),
             u"Be warm.\n\nShort sentences.\n\nNo emoji.\n\nYou route.\nSecond line."_s);
    QCOMPARE(messages.at(1).toObject().value(u"content"_s).toString(), u"my key is [redacted]"_s);
    QCOMPARE(result.notes, QStringList());
    // A real call after it, through the same runner to the same endpoint and answered: a
    // request the shape run had sent would have reached the endpoint before it.
    QCOMPARE(runAndWait(u"ROUTER"_s, u"hi"_s).output, u"hello from model"_s);
    QCOMPARE(m_requests, before + 1);
}

void TestAgentRunner::endpointGlobs_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("baseUrl"); // empty: none configured

    QTest::addRow("grok default") << u"grok-4.3"_s << u"https://api.x.ai/v1"_s;
    QTest::addRow("prefix must match from the start") << u"xgrok-4"_s << QString();
    QTest::addRow("other vendors need a setting") << u"gpt-4o"_s << QString();
    QTest::addRow("glob is case-sensitive") << u"Grok-4"_s << QString();
}

void TestAgentRunner::endpointGlobs()
{
    QFETCH(QString, model);
    QFETCH(QString, baseUrl);
    const std::optional<QUrl> base = AgentEndpoints::defaults().baseUrlFor(model);
    QCOMPARE(base ? base->toString() : QString(), baseUrl);
    QVERIFY(AgentEndpoints::globMatches(u"meta-llama/*"_s, u"meta-llama/llama-3"_s));
    QVERIFY(AgentEndpoints::globMatches(u"m?del.1"_s, u"model.1"_s));
    QVERIFY(!AgentEndpoints::globMatches(u"m?del.1"_s, u"model-1"_s));
}

QTEST_GUILESS_MAIN(TestAgentRunner)
#include "tst_agentrunner.moc"
