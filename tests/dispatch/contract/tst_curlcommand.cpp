#include "dispatch/contract/curlcommand.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;

// CurlCommand: a shape request as a shell command that pastes and runs as written.
class TestCurlCommand final : public QObject
{
    Q_OBJECT

private slots:
    void fromShape_data()
    {
        QTest::addColumn<QJsonObject>("request");
        QTest::addColumn<QString>("expected");

        QTest::addRow("get, no body, no headers")
            << QJsonObject{{u"method"_s, u"GET"_s},
                           {u"url"_s, u"http://127.0.0.1:9/v1/f?a=1&b=2"_s},
                           {u"headers"_s, QJsonObject{}},
                           {u"body"_s, QJsonValue::Null}}
            << u"curl -sS -X GET 'http://127.0.0.1:9/v1/f?a=1&b=2'"_s;
        QTest::addRow("redacted header stays redacted")
            << QJsonObject{{u"method"_s, u"GET"_s},
                           {u"url"_s, u"https://api.x.ai/v1/models"_s},
                           {u"headers"_s, QJsonObject{{u"Authorization"_s, u"[redacted]"_s}}},
                           {u"body"_s, QJsonValue::Null}}
            << u"curl -sS -X GET 'https://api.x.ai/v1/models' -H 'Authorization: [redacted]'"_s;
        QTest::addRow("post with quote in body")
            << QJsonObject{{u"method"_s, u"POST"_s},
                           {u"url"_s, u"https://h/x"_s},
                           {u"headers"_s, QJsonObject{{u"Content-Type"_s, u"application/json"_s}}},
                           {u"body"_s, u"{\"t\":\"it's\"}"_s}}
            << u"curl -sS -X POST 'https://h/x' -H 'Content-Type: application/json' --data-raw '{\"t\":\"it'\\''s\"}'"_s;
        QTest::addRow("agent body object compacted")
            << QJsonObject{{u"method"_s, u"POST"_s},
                           {u"url"_s, u"https://api.x.ai/v1/chat/completions"_s},
                           {u"headers"_s, QJsonObject{}},
                           {u"body"_s, QJsonObject{{u"model"_s, u"grok-4"_s}, {u"messages"_s, QJsonArray{}}}}}
            << u"curl -sS -X POST 'https://api.x.ai/v1/chat/completions' --data-raw '{\"messages\":[],\"model\":\"grok-4\"}'"_s;
        QTest::addRow("empty string body is still sent") << QJsonObject{{u"method"_s, u"PUT"_s},
                                                                        {u"url"_s, u"https://h/"_s},
                                                                        {u"headers"_s, QJsonObject{}},
                                                                        {u"body"_s, u""_s}}
                                                         << u"curl -sS -X PUT 'https://h/' --data-raw ''"_s;
        QTest::addRow("head uses -I") << QJsonObject{{u"method"_s, u"HEAD"_s}, {u"url"_s, u"https://h/"_s}}
                                      << u"curl -sS -I 'https://h/'"_s;
        QTest::addRow("fn shape is no http request")
            << QJsonObject{{u"fn"_s, u"echo"_s}, {u"args"_s, QJsonArray{u"a"_s}}} << u""_s;
    }
    void fromShape()
    {
        QFETCH(QJsonObject, request);
        QFETCH(QString, expected);
        QCOMPARE(CurlCommand::fromShape(request), expected);
    }

    void quote_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::addRow("plain") << u"abc"_s << u"'abc'"_s;
        QTest::addRow("single quote") << u"it's"_s << u"'it'\\''s'"_s;
        QTest::addRow("dollar and backtick stay literal") << u"$HOME `x`"_s << u"'$HOME `x`'"_s;
        QTest::addRow("empty") << u""_s << u"''"_s;
    }
    void quote()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(CurlCommand::quote(text), expected);
    }
};

QTEST_GUILESS_MAIN(TestCurlCommand)
#include "tst_curlcommand.moc"
