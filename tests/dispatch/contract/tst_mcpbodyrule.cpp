#include "dispatch/contract/mcpbodyrule.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;

// How a tools/call's arguments become the one body string: the body-string tool, the
// JSON payload and the '|' join with its order and its '|' rule.
class TestMcpBodyRule : public QObject
{
    Q_OBJECT

private slots:
    void body_data();
    void body();
};

void TestMcpBodyRule::body_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("body"); // expected, when no error
    QTest::addColumn<QString>("error"); // a part of the expected error

    const QString ab = uR"({"type":"object","properties":{"b":{"type":"string"},"a":{"type":"number"}}})"_s;
    QTest::addRow("body string, verbatim")
        << u"GET https://x/$1"_s << u""_s << u""_s << uR"({"body":"a|b"})"_s << u"a|b"_s << u""_s;
    QTest::addRow("body string, missing")
        << u"GET https://x/$1"_s << u""_s << u""_s << u"{}"_s << u""_s << u"'body' is required"_s;
    QTest::addRow("body string, not a string")
        << u"GET https://x/$1"_s << u""_s << u""_s << uR"({"body":1})"_s << u""_s << u"must be a string"_s;
    QTest::addRow("body string, another member")
        << u"GET https://x/$1"_s << u""_s << u""_s << uR"({"body":"x","q":1})"_s << u""_s
        << u"unknown argument 'q'"_s;
    QTest::addRow("a raw $$1+ JSON value: the arguments as JSON")
        << u"POST https://x"_s << u"{\"q\":$$1+}"_s << ab << uR"({"b":"x|y","a":2})"_s
        << uR"({"a":2,"b":"x|y"})"_s << u""_s;
    QTest::addRow("a raw $$1 alone: joined, as '|' would cut it")
        << u"POST https://x"_s << u"{\"q\":$$1}"_s << ab << uR"({"b":"x","a":2})"_s << u"x|2"_s << u""_s;
    QTest::addRow("a quoted $1 in a JSON payload: joined")
        << u"POST https://x"_s << u"{\"q\":\"$1\",\"r\":\"$2\"}"_s << ab << uR"({"b":"x","a":2})"_s
        << u"x|2"_s << u""_s;
    QTest::addRow("an fn argument array: joined, $2+ takes '|'")
        << u"json_get"_s << u"# ARGS: $1=a | $2+=b\n[\"$2+\", \"$1\"]"_s << ab << uR"({"b":"x|y","a":2})"_s
        << u"2|x|y"_s << u""_s;
    QTest::addRow("joined in schema text order")
        << u"GET https://x/$1/$2"_s << u""_s << ab << uR"({"a":2.5,"b":"x"})"_s << u"x|2.5"_s << u""_s;
    QTest::addRow("ARGS names every property: its order")
        << u"GET https://x/$1/$2"_s << u"# ARGS: $1=a (a count), $2=b"_s << ab << uR"({"a":2,"b":"x"})"_s
        << u"2|x"_s << u""_s;
    QTest::addRow("ARGS names one: the schema's order") << u"GET https://x/$1/$2"_s << u"# ARGS: $1=a"_s << ab
                                                        << uR"({"a":2,"b":"x"})"_s << u"x|2"_s << u""_s;
    QTest::addRow("a missing one is empty")
        << u"GET https://x/$1/$2"_s << u""_s << ab << uR"({"a":1})"_s << u"|1"_s << u""_s;
    QTest::addRow("booleans and null")
        << u"GET https://x/$1/$2"_s << u""_s << uR"({"properties":{"t":{},"n":{}}})"_s
        << uR"({"t":true,"n":null})"_s << u"true|"_s << u""_s;
    QTest::addRow("the last may hold '|' with $N+")
        << u"GET https://x/$1/$2+"_s << u""_s << ab << uR"({"b":"x","a":"1|2"})"_s << u"x|1|2"_s << u""_s;
    QTest::addRow("the last may not without $N+")
        << u"GET https://x/$1/$2"_s << u""_s << ab << uR"({"b":"x","a":"1|2"})"_s << u""_s
        << u"argument 'a' contains '|', which would split it"_s;
    QTest::addRow("an earlier one never")
        << u"GET https://x/$1/$2+"_s << u""_s << ab << uR"({"b":"x|y","a":1})"_s << u""_s
        << u"argument 'b' contains '|', which would shift"_s;
    QTest::addRow("an argument the schema lacks")
        << u"GET https://x/$1"_s << u""_s << ab << uR"({"c":1})"_s << u""_s << u"unknown argument 'c'"_s;
    QTest::addRow("escaped key names read as written")
        << u"GET https://x/$1/$2"_s << u""_s << uR"({"properties":{"z\u0041":{},"b":{}}})"_s
        << uR"({"zA":"1","b":"2"})"_s << u"1|2"_s << u""_s;
}

void TestMcpBodyRule::body()
{
    QFETCH(QString, target);
    QFETCH(QString, content);
    QFETCH(QString, schema);
    QFETCH(QString, arguments);
    QFETCH(QString, body);
    QFETCH(QString, error);

    Row row;
    row.key = u"R"_s;
    row.type = u"http"_s;
    row.target = target;
    row.content = content;
    row.inputSchema = schema;
    QString got;
    const std::optional<QString> made =
        McpBodyRule::bodyOf(row, QJsonDocument::fromJson(arguments.toUtf8()).object(), &got);
    if (error.isEmpty()) {
        QVERIFY2(made.has_value(), qPrintable(got));
        QCOMPARE(*made, body);
    } else {
        QVERIFY(!made.has_value());
        QVERIFY2(got.contains(error), qPrintable(got));
    }
    QVERIFY(!McpBodyRule::describe(row).isEmpty());
}

QTEST_GUILESS_MAIN(TestMcpBodyRule)
#include "tst_mcpbodyrule.moc"
