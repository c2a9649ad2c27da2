#include "dispatch/runners/httpclient.h"
#include "dispatch/runners/httprunner.h"
#include "dispatch/secrets/secretsource.h"
#include "dispatch/templates/templatecontext.h"
#include "tests/support/refusingport.h"
#include "tests/support/testcertificates.h"

#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonObject>
#include <QSslServer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <optional>

using namespace Qt::StringLiterals;

// SPEC §3 http against real servers on 127.0.0.1: methods, bodies, content types, the
// status/transport output forms, the 30 s deadline (shortened here), the 8 MiB cut, the
// redirect rule and shape mode, which must not contact anyone.
class TestHttpRunner : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void call_data();
    void call();
    void refusedConnection();
    void timeout();
    void cancellation();
    void bodyCutShortIsAnError();
    void oversizedResponseIsCutAndFlagged();
    void echoedSecretIsMasked();
    void redirects_data();
    void redirects();
    void shape_data();
    void shape();
    void malformedRowSendsNothing();
    void tlsUpstream_data();
    void tlsUpstream();

private:
    struct Seen
    {
        QString method;
        QString pathAndQuery;
        QString contentType;
        QString authorization;
        QByteArray body;
    };

    QString base() const { return u"http://127.0.0.1:%1"_s.arg(m_port); }
    RunContext context(const QString &target, const QString &auth, const QString &content,
                       const QString &body) const;
    RunResult runAndWait(const RunContext &ctx);

    QHttpServer m_server;
    QHttpServer m_otherOrigin;
    quint16 m_port = 0;
    quint16 m_otherPort = 0;
    int m_requests = 0;
    int m_otherRequests = 0;
    // Answers runAndWait's round trip after each run.
    QHttpServer m_after;
    quint16 m_afterPort = 0;
    Seen m_seen;
    HttpClient m_client;
    HttpRunner m_runner{m_client};
    TestCertificates m_certificates;
    QHttpServer m_tlsServer;
    quint16 m_tlsPort = 0;
};

namespace {

class FixedSecrets final : public SecretSource
{
public:
    Lookup lookup(const QString &name) const override
    {
        if (name == u"TOKEN"_s)
            return {Origin::Keychain, u"s3cr3t"_s};
        return {};
    }
};

const FixedSecrets secrets;

QString methodName(QHttpServerRequest::Method method)
{
    switch (method) {
    case QHttpServerRequest::Method::Get:
        return u"GET"_s;
    case QHttpServerRequest::Method::Post:
        return u"POST"_s;
    case QHttpServerRequest::Method::Put:
        return u"PUT"_s;
    case QHttpServerRequest::Method::Patch:
        return u"PATCH"_s;
    case QHttpServerRequest::Method::Delete:
        return u"DELETE"_s;
    case QHttpServerRequest::Method::Head:
        return u"HEAD"_s;
    default:
        return u"OTHER"_s;
    }
}

} // namespace

void TestHttpRunner::initTestCase()
{
    auto record = [this](const QHttpServerRequest &request) {
        ++m_requests;
        m_seen = {methodName(request.method()),
                  request.url().toString(QUrl::FullyEncoded | QUrl::RemoveScheme | QUrl::RemoveAuthority),
                  QString::fromUtf8(request.value("content-type")),
                  QString::fromUtf8(request.value("authorization")), request.body()};
    };
    m_server.route(u"/echo"_s, [record](const QHttpServerRequest &request) {
        record(request);
        return QHttpServerResponse(QByteArrayLiteral("text/plain"), QByteArrayLiteral("ok"));
    });
    m_server.route(u"/status/<arg>"_s, [record](int status, const QHttpServerRequest &request) {
        record(request);
        return QHttpServerResponse(QByteArrayLiteral("text/plain"), "status " + QByteArray::number(status),
                                   static_cast<QHttpServerResponder::StatusCode>(status));
    });
    m_server.route(u"/reflect"_s, [record](const QHttpServerRequest &request) {
        record(request);
        return QHttpServerResponse(QByteArrayLiteral("text/plain"),
                                   "you sent " + request.value("authorization"));
    });
    m_server.route(u"/big"_s, [record](const QHttpServerRequest &request) {
        record(request);
        return QHttpServerResponse(QByteArrayLiteral("text/plain"), QByteArray(9 * 1024 * 1024, 'x'));
    });
    m_server.route(u"/hop"_s, [this, record](const QHttpServerRequest &request) {
        record(request);
        QHttpServerResponse response(QHttpServerResponder::StatusCode::Found);
        response.setHeader(QByteArrayLiteral("Location"), (base() + u"/echo"_s).toUtf8());
        return response;
    });
    m_server.route(u"/away"_s, [this, record](const QHttpServerRequest &request) {
        record(request);
        QHttpServerResponse response(QByteArrayLiteral("text/plain"), QByteArrayLiteral("moved"),
                                     QHttpServerResponder::StatusCode::Found);
        response.setHeader(QByteArrayLiteral("Location"),
                           u"http://127.0.0.1:%1/"_s.arg(m_otherPort).toUtf8());
        return response;
    });
    m_otherOrigin.route(u"/"_s, [this](const QHttpServerRequest &) {
        ++m_otherRequests;
        return QHttpServerResponse(QByteArrayLiteral("text/plain"), QByteArrayLiteral("other origin"));
    });
    QString error;
    QVERIFY2(m_certificates.create(&error), qPrintable(error));
    auto *tls = new QSslServer;
    tls->setSslConfiguration(m_certificates.serverConfiguration(TestCertificates::Server::Loopback));
    QVERIFY(tls->listen(QHostAddress::LocalHost, 0));
    m_tlsPort = tls->serverPort();
    m_tlsServer.bind(tls);
    m_tlsServer.route(u"/secure"_s,
                      [] { return QHttpServerResponse(QByteArrayLiteral("text/plain"), "over TLS"); });
    m_port = quint16(m_server.listen(QHostAddress::LocalHost, 0));
    m_otherPort = quint16(m_otherOrigin.listen(QHostAddress::LocalHost, 0));
    m_after.route(u"/"_s, [] {
        return QHttpServerResponse(QByteArrayLiteral("text/plain"), QByteArrayLiteral("after"));
    });
    m_afterPort = quint16(m_after.listen(QHostAddress::LocalHost, 0));
    QVERIFY(m_port != 0);
    QVERIFY(m_otherPort != 0);
    QVERIFY(m_afterPort != 0);
}

RunContext TestHttpRunner::context(const QString &target, const QString &auth, const QString &content,
                                   const QString &body) const
{
    RunContext ctx;
    ctx.row.key = u"K"_s;
    ctx.row.type = u"http"_s;
    ctx.row.target = QString(target).replace(u"{base}"_s, base());
    ctx.row.auth = auth;
    ctx.row.content = content;
    ctx.body = body;
    ctx.args = TemplateContext::splitBody(body);
    ctx.secrets = &secrets;
    return ctx;
}

RunResult TestHttpRunner::runAndWait(const RunContext &ctx)
{
    std::optional<RunResult> result;
    int calls = 0;
    m_runner.run(ctx, [&](RunResult r) {
        ++calls;
        result = std::move(r);
    });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 20000))
        return RunResult::failure(u"test: the runner never called done"_s);
    // done is called exactly once, also when late events arrive: whatever the finished run
    // still had queued on this thread runs before a later run's whole round trip is over.
    // That run goes to an upstream of its own, so it counts in no test's requests.
    std::optional<RunResult> after;
    m_runner.run(context(u"GET http://127.0.0.1:%1/"_s.arg(m_afterPort), {}, {}, {}),
                 [&after](RunResult r) { after = std::move(r); });
    if (!QTest::qWaitFor([&] { return after.has_value(); }, 20000) || !after->output.endsWith(u"after"_s))
        return RunResult::failure(u"test: the run after it was not answered"_s);
    if (calls != 1)
        return RunResult::failure(u"test: done called %1 times"_s.arg(calls));
    return *result;
}

void TestHttpRunner::call_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("auth");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("output");
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("pathAndQuery");
    QTest::addColumn<QString>("contentType");
    QTest::addColumn<QString>("authorization");
    QTest::addColumn<QByteArray>("sentBody");

    const QString json = u"application/json"_s;
    const QString text = u"text/plain; charset=utf-8"_s;
    QTest::addRow("GET with query") << u"GET {base}/echo?q=$1&n=$2"_s << QString() << u"# WHAT: search"_s
                                    << u"a b&c|2"_s << u"HTTP 200:ok"_s << u"GET"_s
                                    << u"/echo?q=a%20b%26c&n=2"_s << QString() << QString() << QByteArray();
    QTest::addRow("POST JSON with bearer")
        << u"POST {base}/echo"_s << u"bearer:TOKEN"_s << u"{\"content\":\"$1\"}"_s << u"say \"hi\""_s
        << u"HTTP 200:ok"_s << u"POST"_s << u"/echo"_s << json << u"Bearer s3cr3t"_s
        << QByteArray(R"({"content":"say \"hi\""})");
    QTest::addRow("PATCH with a $2+ JSON body")
        << u"PATCH {base}/echo?key=$1"_s << QString() << u"$2+"_s << u"ROUTER|{\"content\":\"a|b\"}"_s
        << u"HTTP 200:ok"_s << u"PATCH"_s << u"/echo?key=ROUTER"_s << json << QString()
        << QByteArray(R"({"content":"a|b"})");
    QTest::addRow("PUT text body") << u"PUT {base}/echo"_s << QString() << u"hello $1"_s << u"wörld"_s
                                   << u"HTTP 200:ok"_s << u"PUT"_s << u"/echo"_s << text << QString()
                                   << u"hello wörld"_s.toUtf8();
    QTest::addRow("DELETE without body")
        << u"DELETE {base}/echo"_s << QString() << QString() << QString() << u"HTTP 200:ok"_s << u"DELETE"_s
        << u"/echo"_s << QString() << QString() << QByteArray();
    QTest::addRow("missing secret sends no credential, 401 is an error")
        << u"GET {base}/status/401"_s << u"bearer:ABSENT_KEY"_s << QString() << QString()
        << u"ERR: HTTP 401:status 401"_s << u"GET"_s << u"/status/401"_s << QString() << QString()
        << QByteArray();
    QTest::addRow("404 is an error") << u"GET {base}/status/404"_s << QString() << QString() << QString()
                                     << u"ERR: HTTP 404:status 404"_s << u"GET"_s << u"/status/404"_s
                                     << QString() << QString() << QByteArray();
    QTest::addRow("2xx other than 200 is a success")
        << u"GET {base}/status/299"_s << QString() << QString() << QString() << u"HTTP 299:status 299"_s
        << u"GET"_s << u"/status/299"_s << QString() << QString() << QByteArray();
    QTest::addRow("500 with body") << u"POST {base}/status/500"_s << QString() << u"x"_s << QString()
                                   << u"ERR: HTTP 500:status 500"_s << u"POST"_s << u"/status/500"_s << text
                                   << QString() << QByteArray("x");
}

void TestHttpRunner::call()
{
    QFETCH(QString, target);
    QFETCH(QString, auth);
    QFETCH(QString, content);
    QFETCH(QString, body);
    m_seen = {};
    const RunResult result = runAndWait(context(target, auth, content, body));
    QTEST(result.output, "output");
    QTEST(m_seen.method, "method");
    QTEST(m_seen.pathAndQuery, "pathAndQuery");
    QTEST(m_seen.contentType, "contentType");
    QTEST(m_seen.authorization, "authorization");
    QTEST(m_seen.body, "sentBody");
}

void TestHttpRunner::refusedConnection()
{
    const RefusingPort dead;
    QVERIFY(dead.port() != 0);
    const RunResult result = runAndWait(context(u"GET http://127.0.0.1:%1/"_s.arg(dead.port()), {}, {}, {}));
    QVERIFY2(result.output.startsWith(u"ERR: "_s), qPrintable(result.output));
    QVERIFY2(result.output.contains(u"refused"_s, Qt::CaseInsensitive), qPrintable(result.output));
    QVERIFY(!result.output.contains(u"HTTP"_s));
}

void TestHttpRunner::timeout()
{
    QTcpServer silent; // accepts and never answers
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    QCOMPARE(m_client.timeoutMs(), HttpClient::defaultTimeoutMs);
    m_client.setTimeoutMs(300);
    QElapsedTimer clock;
    clock.start();
    const RunResult result =
        runAndWait(context(u"GET http://127.0.0.1:%1/"_s.arg(silent.serverPort()), {}, {}, {}));
    m_client.setTimeoutMs(HttpClient::defaultTimeoutMs);
    QCOMPARE(result.output, u"ERR: timeout after 300 ms"_s);
    QVERIFY(clock.elapsed() < 5000);
}

void TestHttpRunner::cancellation()
{
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    RunContext ctx = context(u"GET http://127.0.0.1:%1/"_s.arg(silent.serverPort()), {}, {}, {});
    QTimer::singleShot(100, this, [flag = ctx.cancelled] { flag->store(true); });
    QCOMPARE(runAndWait(ctx).output, u"ERR: cancelled"_s);
}

// The transport's words for a body the server cut short reach the output whole, and none
// of the half body passes for an answer.
void TestHttpRunner::bodyCutShortIsAnError()
{
    QTcpServer cutting; // announces 1000 bytes, sends 500 and closes
    QVERIFY(cutting.listen(QHostAddress::LocalHost, 0));
    connect(&cutting, &QTcpServer::newConnection, this, [&cutting] {
        QTcpSocket *socket = cutting.nextPendingConnection();
        connect(socket, &QTcpSocket::readyRead, socket, [socket] {
            socket->readAll();
            socket->write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + QByteArray(500, 'x'));
            socket->disconnectFromHost();
        });
    });
    const RunResult result =
        runAndWait(context(u"GET http://127.0.0.1:%1/"_s.arg(cutting.serverPort()), {}, {}, {}));
    QCOMPARE(result.output, u"ERR: the server closed the connection after 500 of 1000 bytes"_s);
}

void TestHttpRunner::oversizedResponseIsCutAndFlagged()
{
    const RunResult result = runAndWait(context(u"GET {base}/big"_s, {}, {}, {}));
    const QString head = u"HTTP 200:"_s;
    const QString flag = u"\n[capdesk: response body cut at 8388608 bytes (8 MiB)]"_s;
    QVERIFY(result.output.startsWith(head + u"xxxx"_s));
    QVERIFY(result.output.endsWith(flag));
    QCOMPARE(result.output.size(), head.size() + HttpClient::bodyLimit + flag.size());
    QCOMPARE(result.notes, QStringList{u"response body cut at 8388608 bytes (8 MiB)"_s});
}

void TestHttpRunner::echoedSecretIsMasked()
{
    const RunResult result = runAndWait(context(u"GET {base}/reflect"_s, u"bearer:TOKEN"_s, {}, {}));
    QCOMPARE(m_seen.authorization, u"Bearer s3cr3t"_s);
    QCOMPARE(result.output, u"HTTP 200:you sent Bearer [redacted]"_s);
}

void TestHttpRunner::redirects_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("output");
    QTest::addColumn<int>("otherOriginRequests");
    QTest::addRow("same origin is followed") << u"/hop"_s << u"HTTP 200:ok"_s << 0;
    // Qt ends a redirect it may not follow before reading the 3xx body.
    QTest::addRow("another origin is not") << u"/away"_s << u"HTTP 302:"_s << 0;
}

void TestHttpRunner::redirects()
{
    QFETCH(QString, path);
    m_otherRequests = 0;
    const RunResult result = runAndWait(context(u"GET {base}"_s + path, u"bearer:TOKEN"_s, {}, {}));
    QTEST(result.output, "output");
    QTEST(m_otherRequests, "otherOriginRequests");
}

void TestHttpRunner::shape_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("auth");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QJsonObject>("request");
    QTest::addColumn<QStringList>("notes");

    const auto url = [this](const QString &path) { return base() + path; };
    QTest::addRow("bearer shows a redacted Authorization")
        << u"POST {base}/echo"_s << u"bearer:TOKEN"_s << u"{\"t\":\"$1\"}"_s << u"s3cr3t"_s
        << QJsonObject{{u"method"_s, u"POST"_s},
                       {u"url"_s, url(u"/echo"_s)},
                       {u"headers"_s, QJsonObject{{u"Content-Type"_s, u"application/json"_s},
                                                  {u"Authorization"_s, u"[redacted]"_s}}},
                       {u"body"_s, u"{\"t\":\"[redacted]\"}"_s}}
        << QStringList();
    QTest::addRow("missing secret: no header and a note")
        << u"GET {base}/echo?q=$1"_s << u"bearer:ABSENT_KEY"_s << QString() << u"x y"_s
        << QJsonObject{{u"method"_s, u"GET"_s},
                       {u"url"_s, url(u"/echo?q=x%20y"_s)},
                       {u"headers"_s, QJsonObject()},
                       {u"body"_s, QJsonValue::Null}}
        << QStringList{u"ABSENT_KEY is not set: no credential will be sent"_s};
    QTest::addRow("query auth value is masked in the URL")
        << u"GET {base}/echo"_s << u"query:token=TOKEN"_s << QString() << QString()
        << QJsonObject{{u"method"_s, u"GET"_s},
                       {u"url"_s, url(u"/echo?token=[redacted]"_s)},
                       {u"headers"_s, QJsonObject()},
                       {u"body"_s, QJsonValue::Null}}
        << QStringList();
}

void TestHttpRunner::shape()
{
    QFETCH(QString, target);
    QFETCH(QString, auth);
    QFETCH(QString, content);
    QFETCH(QString, body);
    RunContext ctx = context(target, auth, content, body);
    ctx.shape = true;
    const int before = m_requests;
    const RunResult result = runAndWait(ctx);
    QCOMPARE(result.output, QString());
    QTEST(result.shapeRequest, "request");
    QTEST(result.notes, "notes");
    // runAndWait's later round trip is answered only after anything sent before it arrived.
    QCOMPARE(m_requests, before);
}

void TestHttpRunner::malformedRowSendsNothing()
{
    const int before = m_requests;
    const RunResult result = runAndWait(context(u"POST {base}/echo"_s, u"bearer:"_s, u"{}"_s, {}));
    QVERIFY2(result.output.startsWith(u"ERR: malformed auth"_s), qPrintable(result.output));
    // runAndWait's later round trip is answered only after anything sent before it arrived.
    QCOMPARE(m_requests, before);
}

void TestHttpRunner::tlsUpstream_data()
{
    QTest::addColumn<bool>("trustTheCa");
    QTest::addColumn<QString>("output"); // how it starts
    QTest::addRow("the CA trusted") << true << u"HTTP 200:over TLS"_s;
    QTest::addRow("the CA not trusted") << false << u"ERR: certificate for 127.0.0.1 is not trusted: "_s;
}

void TestHttpRunner::tlsUpstream()
{
    QFETCH(bool, trustTheCa);
    m_client.setCaFile(trustTheCa ? m_certificates.caFile() : QString());
    const RunResult result =
        runAndWait(context(u"GET https://127.0.0.1:%1/secure"_s.arg(m_tlsPort), {}, {}, {}));
    m_client.setCaFile(QString());
    QFETCH(QString, output);
    QVERIFY2(result.output.startsWith(output), qPrintable(result.output));
}

QTEST_GUILESS_MAIN(TestHttpRunner)
#include "tst_httprunner.moc"
