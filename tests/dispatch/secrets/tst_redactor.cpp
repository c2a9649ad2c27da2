#include "dispatch/secrets/redactor.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;

// SPEC §5 redactDeep: credential headers by name, the auth query parameter, and any
// string holding a secret value resolved for the call, anywhere in the tree.
class TestRedactor : public QObject
{
    Q_OBJECT

private slots:
    void redactDeep_data();
    void redactDeep();
    void maskSecretValues();
};

namespace {

QJsonValue parse(const QString &json)
{
    return QJsonDocument::fromJson(json.toUtf8()).object().value(u"v"_s);
}

} // namespace

void TestRedactor::redactDeep_data()
{
    QTest::addColumn<QStringList>("secrets");
    QTest::addColumn<QString>("authParameter");
    QTest::addColumn<QString>("input"); // JSON of {"v": …}
    QTest::addColumn<QString>("expected"); // JSON of {"v": …}

    const QStringList none;
    QTest::addRow("Authorization header")
        << none << QString() << uR"({"v":{"headers":{"Authorization":"Bearer x","Accept":"*/*"}}})"_s
        << uR"({"v":{"headers":{"Authorization":"[redacted]","Accept":"*/*"}}})"_s;
    QTest::addRow("header names in any case")
        << none << QString()
        << uR"({"v":{"AUTHORIZATION":"a","X-Api-Key":"b","cookie":"c","Proxy-Authorization":"d","x-other":"e"}})"_s
        << uR"({"v":{"AUTHORIZATION":"[redacted]","X-Api-Key":"[redacted]","cookie":"[redacted]","Proxy-Authorization":"[redacted]","x-other":"e"}})"_s;
    QTest::addRow("*_API_KEY members, nested in arrays")
        << none << QString() << uR"({"v":[{"GROK_API_KEY":"k","n":[{"openai_api_key":{"x":1}}]}]})"_s
        << uR"({"v":[{"GROK_API_KEY":"[redacted]","n":[{"openai_api_key":"[redacted]"}]}]})"_s;
    QTest::addRow("absent header stays absent")
        << none << QString() << uR"({"v":{"headers":{}}})"_s << uR"({"v":{"headers":{}}})"_s;
    QTest::addRow("auth query parameter value")
        << QStringList{u"zz9"_s} << u"key"_s << uR"({"v":{"url":"https://h/v?x=1&key=zz9&y=2"}})"_s
        << uR"({"v":{"url":"https://h/v?x=1&key=[redacted]&y=2"}})"_s;
    QTest::addRow("named auth query parameter, first position")
        << QStringList() << u"token"_s << uR"({"v":"https://h/v?token=abc#frag"})"_s
        << uR"({"v":"https://h/v?token=[redacted]#frag"})"_s;
    QTest::addRow("other parameters untouched")
        << none << u"key"_s << uR"({"v":"https://h/v?monkey=1&keys=2"})"_s
        << uR"({"v":"https://h/v?monkey=1&keys=2"})"_s;
    QTest::addRow("*_api_key query parameter")
        << none << QString() << uR"({"v":"https://h/v?google_api_key=q"})"_s
        << uR"({"v":"https://h/v?google_api_key=[redacted]"})"_s;
    QTest::addRow("secret value inside any string")
        << QStringList{u"s3cr3t"_s} << QString() << uR"({"v":{"body":"{\"token\":\"s3cr3t\"} and s3cr3t"}})"_s
        << uR"({"v":{"body":"{\"token\":\"[redacted]\"} and [redacted]"}})"_s;
    QTest::addRow("percent-encoded secret in a URL")
        << QStringList{u"a+b c"_s} << QString() << uR"({"v":"https://h/?p=a%2Bb%20c"})"_s
        << uR"({"v":"https://h/?p=[redacted]"})"_s;
    QTest::addRow("base64 secret") << QStringList{u"user:pass"_s} << QString()
                                   << uR"({"v":["dXNlcjpwYXNz"]})"_s << uR"({"v":["[redacted]"]})"_s;
    QTest::addRow("longer secret masked whole")
        << QStringList{u"abc"_s, u"abcdef"_s} << QString() << uR"({"v":"xabcdefx abc"})"_s
        << uR"({"v":"x[redacted]x [redacted]"})"_s;
    QTest::addRow("empty secret ignored")
        << QStringList{QString()} << QString() << uR"({"v":"plain"})"_s << uR"({"v":"plain"})"_s;
    QTest::addRow("numbers and booleans kept")
        << QStringList{u"1"_s} << QString() << uR"({"v":[1,true,null]})"_s << uR"({"v":[1,true,null]})"_s;
}

void TestRedactor::redactDeep()
{
    QFETCH(QStringList, secrets);
    QFETCH(QString, authParameter);
    QFETCH(QString, input);
    QFETCH(QString, expected);
    const Redactor redactor(secrets, authParameter);
    QCOMPARE(redactor.redactDeep(parse(input)), parse(expected));
}

void TestRedactor::maskSecretValues()
{
    const Redactor redactor({u"s3cr3t"_s}, u"key"_s);
    // Only values: a key-shaped parameter in an upstream's answer is the upstream's business.
    QCOMPARE(redactor.maskSecretValues(u"echo s3cr3t ?key=v&my_api_key=w"_s),
             u"echo [redacted] ?key=v&my_api_key=w"_s);
}

QTEST_GUILESS_MAIN(TestRedactor)
#include "tst_redactor.moc"
