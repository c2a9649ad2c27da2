#include "dispatch/contract/curlcommand.h"
#include "tests/support/processrun.h"

#include <QHttpServer>
#include <QJsonArray>
#include <QStandardPaths>
#include <QTest>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

// CurlCommand: a shape request as a shell command that pastes and runs as written, the
// credential as a reference to the environment variable its secret is named by. The text is
// checked case by case; then bash itself splits commands into curl's arguments, and runs
// them with real curl against a server on 127.0.0.1.
class TestCurlCommand final : public QObject
{
    Q_OBJECT

private slots:
    void fromShape_data();
    void fromShape();
    void quote_data();
    void quote();
    void argumentsAsBashSplitsThem_data();
    void argumentsAsBashSplitsThem();
    void curlSendsTheSecretFromTheEnvironment_data();
    void curlSendsTheSecretFromTheEnvironment();
};

namespace {

QJsonObject get(const QString &url, const QJsonObject &headers = {})
{
    return {{u"method"_s, u"GET"_s}, {u"url"_s, url}, {u"headers"_s, headers}, {u"body"_s, QJsonValue::Null}};
}

QJsonObject post(const QString &url, const QJsonObject &headers, const QJsonValue &body)
{
    return {{u"method"_s, u"POST"_s}, {u"url"_s, url}, {u"headers"_s, headers}, {u"body"_s, body}};
}

const QJsonObject redactedAuthorization{{u"Authorization"_s, u"[redacted]"_s}};

// A value with everything a shell could expand or split on, for the header forms.
const QString kNastyValue = u"s3 $HOME \"q\" 'x' `id` \\ ! ; $(true) *"_s;

// bash running `command` with NAME=value in its environment, curl being a function that
// prints its arguments NUL-separated (or the real curl when `realCurl`).
ProcessRun::Result runInBash(const QString &command, const QString &name, const QString &value, bool realCurl)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(name, value);
    const QString script = realCurl ? command : u"curl() { printf '%s\\0' \"$@\"; }\n"_s + command;
    return ProcessRun::run(u"bash"_s, {u"-c"_s, script}, {}, environment);
}

} // namespace

void TestCurlCommand::fromShape_data()
{
    QTest::addColumn<QJsonObject>("request");
    QTest::addColumn<QString>("auth");
    QTest::addColumn<QString>("expected");

    QTest::addRow("get, no body, no headers, no auth")
        << get(u"http://127.0.0.1:9/v1/f?a=1&b=2"_s) << QString()
        << u"curl -sS -g -X GET 'http://127.0.0.1:9/v1/f?a=1&b=2'"_s;
    QTest::addRow("bearer: the redacted header becomes $NAME")
        << get(u"https://api.x.ai/v1/models"_s, redactedAuthorization) << u"bearer:XAI_API_KEY"_s
        << u"curl -sS -g -X GET 'https://api.x.ai/v1/models' -H \"Authorization: Bearer $XAI_API_KEY\""_s;
    QTest::addRow("bearer missing from the shape is referenced all the same")
        << get(u"https://api.x.ai/v1/models"_s) << u"bearer:XAI_API_KEY"_s
        << u"curl -sS -g -X GET 'https://api.x.ai/v1/models' -H \"Authorization: Bearer $XAI_API_KEY\""_s;
    QTest::addRow("bearer comes after the other headers")
        << post(
               u"https://h/x"_s,
               QJsonObject{{u"Authorization"_s, u"[redacted]"_s}, {u"Content-Type"_s, u"application/json"_s}},
               u"{\"a\":1}"_s)
        << u"bearer:GITHUB_TOKEN"_s
        << u"curl -sS -g -X POST 'https://h/x' -H 'Content-Type: application/json' "
           "-H \"Authorization: Bearer $GITHUB_TOKEN\" --data-raw '{\"a\":1}'"_s;
    QTest::addRow("basic: curl -u with the user:password variable")
        << get(u"https://h/x"_s, redactedAuthorization) << u"basic:GH_LOGIN"_s
        << u"curl -sS -g -X GET 'https://h/x' -u \"$GH_LOGIN\""_s;
    QTest::addRow("query: the redacted key becomes $NAME")
        << get(u"https://h/x?q=1&key=[redacted]"_s) << u"query:MAPS_KEY"_s
        << u"curl -sS -g -X GET \"https://h/x?q=1&key=$MAPS_KEY\""_s;
    QTest::addRow("query missing from the shape is added")
        << get(u"https://h/x?q=1"_s) << u"query:MAPS_KEY"_s
        << u"curl -sS -g -X GET \"https://h/x?q=1&key=$MAPS_KEY\""_s;
    QTest::addRow("query on a URL without one") << get(u"https://h/x"_s) << u"query:MAPS_KEY"_s
                                                << u"curl -sS -g -X GET \"https://h/x?key=$MAPS_KEY\""_s;
    QTest::addRow("query:PARAM=NAME names the parameter")
        << get(u"https://h/x?api_key=[redacted]"_s) << u"query:api_key=GOOGLE_KEY"_s
        << u"curl -sS -g -X GET \"https://h/x?api_key=$GOOGLE_KEY\""_s;
    QTest::addRow("query: only the last masked parameter is the credential")
        << get(u"https://h/x?key=[redacted]&b=2&key=[redacted]"_s) << u"query:K"_s
        << u"curl -sS -g -X GET \"https://h/x?key=[redacted]&b=2&key=$K\""_s;
    QTest::addRow("query goes before the fragment")
        << get(u"https://h/x?q=1&key=[redacted]#top"_s) << u"query:K"_s
        << u"curl -sS -g -X GET \"https://h/x?q=1&key=$K#top\""_s;
    QTest::addRow("shell characters around a reference: only the reference is double-quoted")
        << get(u"https://h/a$b!c'd`e`\"f\\g?key=[redacted]"_s) << u"query:K"_s
        << u"curl -sS -g -X GET 'https://h/a$b!c'\\''d`e`\"f\\g?key='\"$K\""_s;
    QTest::addRow("shell characters elsewhere stay literal")
        << post(u"https://h/x"_s, redactedAuthorization, u"$HOME `id` \"q\" \\ !x"_s) << u"bearer:T"_s
        << u"curl -sS -g -X POST 'https://h/x' -H \"Authorization: Bearer $T\" --data-raw '$HOME `id` \"q\" \\ !x'"_s;
    QTest::addRow("auth that names no shell variable: said, and left as shown")
        << get(u"https://h/x"_s, redactedAuthorization) << u"bearer:MY-TOKEN"_s
        << u"# The auth of this row names no secret by a shell variable name, so its credential is left as "
           "the preview shows it.\ncurl -sS -g -X GET 'https://h/x' -H 'Authorization: [redacted]'"_s;
    QTest::addRow("post with quote in body")
        << post(u"https://h/x"_s, QJsonObject{{u"Content-Type"_s, u"application/json"_s}},
                u"{\"t\":\"it's\"}"_s)
        << QString()
        << u"curl -sS -g -X POST 'https://h/x' -H 'Content-Type: application/json' --data-raw '{\"t\":\"it'\\''s\"}'"_s;
    QTest::addRow("agent body object compacted")
        << post(u"https://api.x.ai/v1/chat/completions"_s, QJsonObject{},
                QJsonObject{{u"model"_s, u"grok-4"_s}, {u"messages"_s, QJsonArray{}}})
        << u"bearer:XAI_API_KEY"_s
        << u"curl -sS -g -X POST 'https://api.x.ai/v1/chat/completions' -H \"Authorization: Bearer "
           u"$XAI_API_KEY\" "
           "--data-raw '{\"messages\":[],\"model\":\"grok-4\"}'"_s;
    QTest::addRow("empty string body is still sent")
        << QJsonObject{{u"method"_s, u"PUT"_s},
                       {u"url"_s, u"https://h/"_s},
                       {u"headers"_s, QJsonObject{}},
                       {u"body"_s, u""_s}}
        << QString() << u"curl -sS -g -X PUT 'https://h/' --data-raw ''"_s;
    QTest::addRow("head uses -I") << QJsonObject{{u"method"_s, u"HEAD"_s}, {u"url"_s, u"https://h/"_s}}
                                  << QString() << u"curl -sS -g -I 'https://h/'"_s;
    QTest::addRow("fn shape is no http request")
        << QJsonObject{{u"fn"_s, u"echo"_s}, {u"args"_s, QJsonArray{u"a"_s}}} << u"bearer:T"_s << u""_s;
}

void TestCurlCommand::fromShape()
{
    QFETCH(QJsonObject, request);
    QFETCH(QString, auth);
    QFETCH(QString, expected);
    QCOMPARE(CurlCommand::fromShape(request, auth), expected);
}

void TestCurlCommand::quote_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::addRow("plain") << u"abc"_s << u"'abc'"_s;
    QTest::addRow("single quote") << u"it's"_s << u"'it'\\''s'"_s;
    QTest::addRow("dollar and backtick stay literal") << u"$HOME `x`"_s << u"'$HOME `x`'"_s;
    QTest::addRow("empty") << u""_s << u"''"_s;
}

void TestCurlCommand::quote()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(CurlCommand::quote(text), expected);
}

void TestCurlCommand::argumentsAsBashSplitsThem_data()
{
    QTest::addColumn<QJsonObject>("request");
    QTest::addColumn<QString>("auth");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QStringList>("arguments");

    QTest::addRow("bearer") << post(u"https://h/x"_s, redactedAuthorization, u"$HOME `id` \"q\" \\ !x 'y'"_s)
                            << u"bearer:TOKEN"_s << kNastyValue
                            << QStringList{u"-sS"_s,
                                           u"-g"_s,
                                           u"-X"_s,
                                           u"POST"_s,
                                           u"https://h/x"_s,
                                           u"-H"_s,
                                           u"Authorization: Bearer "_s + kNastyValue,
                                           u"--data-raw"_s,
                                           u"$HOME `id` \"q\" \\ !x 'y'"_s};
    QTest::addRow("basic")
        << get(u"https://h/x"_s, redactedAuthorization) << u"basic:LOGIN"_s << u"user:pa$s \"w'rd"_s
        << QStringList{
               u"-sS"_s, u"-g"_s, u"-X"_s, u"GET"_s, u"https://h/x"_s, u"-u"_s, u"user:pa$s \"w'rd"_s};
    QTest::addRow("query, double-quoted word")
        << get(u"https://h/x?q=1&key=[redacted]"_s) << u"query:KEY"_s << u"k-1_2.3"_s
        << QStringList{u"-sS"_s, u"-g"_s, u"-X"_s, u"GET"_s, u"https://h/x?q=1&key=k-1_2.3"_s};
    QTest::addRow("query, shell characters in the URL")
        << get(u"https://h/a$b!c'd`e`\"f\\g?key=[redacted]#top"_s) << u"query:p=KEY"_s << u"k$HOME"_s
        << QStringList{u"-sS"_s, u"-g"_s, u"-X"_s, u"GET"_s,
                       u"https://h/a$b!c'd`e`\"f\\g?key=[redacted]&p=k$HOME#top"_s};
}

void TestCurlCommand::argumentsAsBashSplitsThem()
{
    QFETCH(QJsonObject, request);
    QFETCH(QString, auth);
    QFETCH(QString, value);
    QFETCH(QStringList, arguments);
    if (QStandardPaths::findExecutable(u"bash"_s).isEmpty())
        QSKIP("needs bash");
    const QString command = CurlCommand::fromShape(request, auth);
    QVERIFY2(!command.contains(value), qPrintable(command));
    const ProcessRun::Result run = runInBash(command, auth.section(u'=', -1).section(u':', -1), value, false);
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    QStringList split = QString::fromUtf8(run.out).split(QChar(u'\0'));
    QCOMPARE(split.takeLast(), QString()); // after the last argument's NUL
    QCOMPARE(split, arguments);
}

void TestCurlCommand::curlSendsTheSecretFromTheEnvironment_data()
{
    QTest::addColumn<QString>("auth");
    QTest::addColumn<QString>("url"); // %1: the server's port
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("authorization"); // the header the server must receive; empty: none
    QTest::addColumn<QString>("parameter"); // the query parameter carrying the value, if any

    QTest::addRow("bearer") << u"bearer:CURL_TST_TOKEN"_s << u"http://127.0.0.1:%1/echo?q=1"_s << kNastyValue
                            << u"Bearer "_s + kNastyValue << QString();
    QTest::addRow("basic") << u"basic:CURL_TST_LOGIN"_s << u"http://127.0.0.1:%1/echo"_s
                           << u"user:pa$s \"w'rd"_s
                           << u"Basic "_s + QString::fromLatin1(QByteArray("user:pa$s \"w'rd").toBase64())
                           << QString();
    QTest::addRow("query") << u"query:CURL_TST_KEY"_s << u"http://127.0.0.1:%1/echo?q=1&key=[redacted]"_s
                           << u"k-1_2.3~x"_s << QString() << u"key"_s;
    QTest::addRow("query:PARAM=NAME") << u"query:api_key=CURL_TST_KEY"_s << u"http://127.0.0.1:%1/echo"_s
                                      << u"k-9"_s << QString() << u"api_key"_s;
    // Without -g, curl reads the brackets as a glob range and refuses the URL.
    QTest::addRow("brackets in the URL")
        << u"bearer:CURL_TST_TOKEN"_s << u"http://127.0.0.1:%1/echo?ids[]=1&f={a}"_s << u"t-1"_s
        << u"Bearer t-1"_s << QString();
}

void TestCurlCommand::curlSendsTheSecretFromTheEnvironment()
{
    QFETCH(QString, auth);
    QFETCH(QString, url);
    QFETCH(QString, value);
    QFETCH(QString, authorization);
    QFETCH(QString, parameter);
    if (QStandardPaths::findExecutable(u"curl"_s).isEmpty()
        || QStandardPaths::findExecutable(u"bash"_s).isEmpty())
        QSKIP("needs curl and bash; argumentsAsBashSplitsThem checks the words without them");

    QHttpServer server;
    QStringList received;
    QStringList values;
    server.route(u"/echo"_s, [&](const QHttpServerRequest &request) {
        for (const auto &[name, header] : request.headers()) {
            if (name.compare("authorization", Qt::CaseInsensitive) == 0)
                received << QString::fromUtf8(header);
        }
        if (!parameter.isEmpty())
            values << QUrlQuery(request.url()).queryItemValue(parameter, QUrl::FullyDecoded);
        return QHttpServerResponse(u"ok"_s);
    });
    const quint16 port = server.listen(QHostAddress::LocalHost, 0);
    QVERIFY(port != 0);

    const QString command = CurlCommand::fromShape(get(url.arg(port)), auth);
    QVERIFY2(!command.contains(value), qPrintable(command));
    const ProcessRun::Result run = runInBash(command, auth.section(u'=', -1).section(u':', -1), value, true);
    QVERIFY2(run.finished && run.exitCode == 0, (command.toUtf8() + '\n' + run.err).constData());
    QCOMPARE(run.out, QByteArray("ok"));
    QCOMPARE(received, authorization.isEmpty() ? QStringList() : QStringList{authorization});
    if (!parameter.isEmpty())
        QCOMPARE(values, QStringList{value});
}

QTEST_GUILESS_MAIN(TestCurlCommand)
#include "tst_curlcommand.moc"
