#include "dispatch/runners/httprequestbuilder.h"
#include "dispatch/runners/runner.h"
#include "dispatch/secrets/secretsource.h"
#include "dispatch/templates/templatecontext.h"

#include <QHash>
#include <QTest>

using namespace Qt::StringLiterals;

// SPEC §3 http and Auth: the one request builder behind live calls and shape mode.
class TestHttpRequestBuilder : public QObject
{
    Q_OBJECT

private slots:
    void build_data();
    void build();
    void error_data();
    void error();
};

namespace {

// A test double of the interface: fixed values, everything else missing.
class FixedSecrets final : public SecretSource
{
public:
    Lookup lookup(const QString &name) const override
    {
        static const QHash<QString, QString> values{
            {u"TOKEN"_s, u"s3cr3t"_s}, {u"CREDS"_s, u"user:pa ss"_s}, {u"QKEY"_s, u"a+b c&d"_s}};
        const auto it = values.find(name);
        return it == values.end() ? Lookup{} : Lookup{Origin::Environment, *it};
    }
};

RunContext context(const QString &target, const QString &auth, const QString &content, const QString &body,
                   const SecretSource *secrets)
{
    RunContext ctx;
    ctx.row.key = u"K"_s;
    ctx.row.type = u"http"_s;
    ctx.row.target = target;
    ctx.row.auth = auth;
    ctx.row.content = content;
    ctx.body = body;
    ctx.args = TemplateContext::splitBody(body);
    ctx.secrets = secrets;
    return ctx;
}

QStringList headerLines(const HttpCallPlan &plan)
{
    QStringList lines;
    for (const auto &header : plan.headers)
        lines << QString::fromLatin1(header.first) + u": "_s + QString::fromUtf8(header.second);
    return lines;
}

} // namespace

void TestHttpRequestBuilder::build_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("auth");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("url");
    QTest::addColumn<QStringList>("headers");
    QTest::addColumn<bool>("hasBody");
    QTest::addColumn<QString>("sentBody");
    QTest::addColumn<QStringList>("notes");

    const QString json = u"application/json"_s;
    const QString ct = u"Content-Type: "_s;
    const QString text = u"text/plain; charset=utf-8"_s;

    QTest::addRow("GET, doc-only content sends no body")
        << u"GET https://api.example.com/v1/models"_s << QString() << u"# WHAT: list models"_s << QString()
        << u"GET"_s << u"https://api.example.com/v1/models"_s << QStringList() << false << QString()
        << QStringList();
    QTest::addRow("HEAD without payload")
        << u"HEAD http://h.example/x"_s << QString() << QString() << u"a"_s << u"HEAD"_s
        << u"http://h.example/x"_s << QStringList() << false << QString() << QStringList();
    QTest::addRow("DELETE without payload")
        << u"DELETE http://h.example/items/$1"_s << QString() << QString() << u"7"_s << u"DELETE"_s
        << u"http://h.example/items/7"_s << QStringList() << false << QString() << QStringList();
    QTest::addRow("GET whose payload substitutes to empty")
        << u"GET http://h.example/"_s << QString() << u"$2"_s << u"a"_s << u"GET"_s << u"http://h.example/"_s
        << QStringList() << false << QString() << QStringList();
    QTest::addRow("HEAD never carries a body")
        << u"HEAD http://h.example/"_s << QString() << u"ping"_s << QString() << u"HEAD"_s
        << u"http://h.example/"_s << QStringList() << false << QString()
        << QStringList{u"HEAD sends no body: the payload is not sent"_s};
    QTest::addRow("URL args are encodeURIComponent-ed")
        << u"GET https://h.example/search?q=$1&page=$2"_s << QString() << QString() << u"a b&c=d/é?|2"_s
        << u"GET"_s << u"https://h.example/search?q=a%20b%26c%3Dd%2F%C3%A9%3F&page=2"_s << QStringList()
        << false << QString() << QStringList();
    QTest::addRow("$$ in the URL is not escaped")
        << u"GET https://h.example/$$1"_s << QString() << QString() << u"a/b"_s << u"GET"_s
        << u"https://h.example/a/b"_s << QStringList() << false << QString() << QStringList();
    QTest::addRow("POST JSON payload")
        << u"POST https://h.example/m"_s << QString() << u"# WHAT: send\n{\"content\":\"$1\"}"_s << u"a\"b"_s
        << u"POST"_s << u"https://h.example/m"_s << QStringList{ct + json} << true
        << u"{\"content\":\"a\\\"b\"}"_s << QStringList();
    QTest::addRow("PATCH $2+ keeps the pipes")
        << u"PATCH https://h.example/dir/$1"_s << QString() << u"$2+"_s << u"ROUTER|{\"content\":\"a|b\"}"_s
        << u"PATCH"_s << u"https://h.example/dir/ROUTER"_s << QStringList{ct + json} << true
        << u"{\"content\":\"a|b\"}"_s << QStringList();
    QTest::addRow("raw text payload")
        << u"PUT https://h.example/t"_s << QString() << u"hello $1"_s << u"world"_s << u"PUT"_s
        << u"https://h.example/t"_s << QStringList{ct + text} << true << u"hello world"_s << QStringList();
    QTest::addRow("raw payload that happens to be strict JSON")
        << u"POST https://h.example/t"_s << QString() << u"$1"_s << u"42"_s << u"POST"_s
        << u"https://h.example/t"_s << QStringList{ct + json} << true << u"42"_s << QStringList();
    QTest::addRow("Qt-only JSON counts as text")
        << u"POST https://h.example/t"_s << QString() << u"$1"_s << u"[1.]"_s << u"POST"_s
        << u"https://h.example/t"_s << QStringList{ct + text} << true << u"[1.]"_s << QStringList();
    QTest::addRow("POST with an empty payload still sends an empty body")
        << u"POST https://h.example/t"_s << QString() << QString() << QString() << u"POST"_s
        << u"https://h.example/t"_s << QStringList{ct + text} << true << QString() << QStringList();
    QTest::addRow("DELETE with payload sends it")
        << u"DELETE https://h.example/t"_s << QString() << u"{\"id\":$1}"_s << u"3"_s << u"DELETE"_s
        << u"https://h.example/t"_s << QStringList{ct + json} << true << u"{\"id\":3}"_s << QStringList();

    QTest::addRow("bearer present") << u"GET https://h.example/"_s << u"bearer:TOKEN"_s << QString()
                                    << QString() << u"GET"_s << u"https://h.example/"_s
                                    << QStringList{u"Authorization: Bearer s3cr3t"_s} << false << QString()
                                    << QStringList();
    QTest::addRow("bearer missing") << u"GET https://h.example/"_s << u"bearer:NOPE"_s << QString()
                                    << QString() << u"GET"_s << u"https://h.example/"_s << QStringList()
                                    << false << QString()
                                    << QStringList{u"NOPE is not set: no credential will be sent"_s};
    QTest::addRow("basic present") << u"GET https://h.example/"_s << u"basic:CREDS"_s << QString()
                                   << QString() << u"GET"_s << u"https://h.example/"_s
                                   << QStringList{u"Authorization: Basic dXNlcjpwYSBzcw=="_s} << false
                                   << QString() << QStringList();
    QTest::addRow("basic missing") << u"GET https://h.example/"_s << u"basic:NOPE"_s << QString() << QString()
                                   << u"GET"_s << u"https://h.example/"_s << QStringList() << false
                                   << QString()
                                   << QStringList{u"NOPE is not set: no credential will be sent"_s};
    QTest::addRow("query present, default parameter key")
        << u"GET https://h.example/v?x=$1"_s << u"query:QKEY"_s << QString() << u"1"_s << u"GET"_s
        << u"https://h.example/v?x=1&key=a%2Bb%20c%26d"_s << QStringList() << false << QString()
        << QStringList();
    QTest::addRow("query present, named parameter")
        << u"GET https://h.example/v"_s << u"query:api_key=QKEY"_s << QString() << QString() << u"GET"_s
        << u"https://h.example/v?api_key=a%2Bb%20c%26d"_s << QStringList() << false << QString()
        << QStringList();
    QTest::addRow("query missing") << u"GET https://h.example/v"_s << u"query:token=NOPE"_s << QString()
                                   << QString() << u"GET"_s << u"https://h.example/v"_s << QStringList()
                                   << false << QString()
                                   << QStringList{u"NOPE is not set: no credential will be sent"_s};
    QTest::addRow("auth with a body keeps Content-Type first")
        << u"POST https://h.example/"_s << u" bearer:TOKEN "_s << u"{}"_s << QString() << u"POST"_s
        << u"https://h.example/"_s << QStringList{ct + json, u"Authorization: Bearer s3cr3t"_s} << true
        << u"{}"_s << QStringList();
}

void TestHttpRequestBuilder::build()
{
    QFETCH(QString, target);
    QFETCH(QString, auth);
    QFETCH(QString, content);
    QFETCH(QString, body);
    FixedSecrets secrets;
    const HttpCallPlan plan = HttpRequestBuilder::build(context(target, auth, content, body, &secrets));
    QCOMPARE(plan.error, QString());
    QTEST(plan.method, "method");
    QTEST(plan.url.toString(QUrl::FullyEncoded), "url");
    QTEST(headerLines(plan), "headers");
    QTEST(plan.hasBody, "hasBody");
    QTEST(QString::fromUtf8(plan.body), "sentBody");
    QTEST(plan.notes, "notes");
}

void TestHttpRequestBuilder::error_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("auth");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("errorStart");

    const QString method = u"ERR: http target must be \"METHOD URL\""_s;
    const QString malformed = u"ERR: malformed auth"_s;
    QTest::addRow("unknown method") << u"OPTIONS https://h.example/"_s << QString() << QString() << method;
    QTest::addRow("lower-case method") << u"get https://h.example/"_s << QString() << QString() << method;
    QTest::addRow("no URL") << u"GET"_s << QString() << QString() << method;
    QTest::addRow("empty target") << QString() << QString() << QString() << method;
    QTest::addRow("relative URL") << u"GET /v1/models"_s << QString() << QString()
                                  << u"ERR: http target URL is not an absolute http(s) URL"_s;
    QTest::addRow("other scheme") << u"GET ftp://h.example/"_s << QString() << QString()
                                  << u"ERR: http target URL is not an absolute http(s) URL"_s;
    QTest::addRow("broken JSON payload")
        << u"POST https://h.example/"_s << QString() << u"{\"a\": $1 $1}"_s << u"ERR: template:"_s;
    QTest::addRow("unknown auth prefix")
        << u"GET https://h.example/"_s << u"token:X"_s << QString() << malformed;
    QTest::addRow("auth without colon")
        << u"GET https://h.example/"_s << u"bearer"_s << QString() << malformed;
    QTest::addRow("auth without name")
        << u"GET https://h.example/"_s << u"bearer:"_s << QString() << malformed;
    QTest::addRow("auth name with blanks")
        << u"GET https://h.example/"_s << u"bearer:A B"_s << QString() << malformed;
    QTest::addRow("upper-case prefix")
        << u"GET https://h.example/"_s << u"Bearer:TOKEN"_s << QString() << malformed;
    QTest::addRow("query with empty parameter")
        << u"GET https://h.example/"_s << u"query:=QKEY"_s << QString() << malformed;
    QTest::addRow("query with bad parameter")
        << u"GET https://h.example/"_s << u"query:a&b=QKEY"_s << QString() << malformed;
    QTest::addRow("parameter form on bearer")
        << u"GET https://h.example/"_s << u"bearer:p=TOKEN"_s << QString() << malformed;
}

void TestHttpRequestBuilder::error()
{
    QFETCH(QString, target);
    QFETCH(QString, auth);
    QFETCH(QString, content);
    QFETCH(QString, errorStart);
    FixedSecrets secrets;
    const HttpCallPlan plan = HttpRequestBuilder::build(context(target, auth, content, u"x"_s, &secrets));
    QVERIFY2(plan.error.startsWith(errorStart), qPrintable(plan.error));
    QVERIFY(!plan.ok());
    QVERIFY(plan.usedSecretValues.isEmpty());
}

QTEST_GUILESS_MAIN(TestHttpRequestBuilder)
#include "tst_httprequestbuilder.moc"
