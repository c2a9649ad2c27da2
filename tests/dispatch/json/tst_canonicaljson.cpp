#include "dispatch/json/canonicaljson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <limits>

using namespace Qt::StringLiterals;

// SPEC §6 canonical JSON: the bytes the contract fingerprint and receipt signatures are
// taken over. Each row gives a value (parsed from JSON text, or built in code where the
// parser cannot produce it) and the exact bytes expected.
class TestCanonicalJson : public QObject
{
    Q_OBJECT

private slots:
    void serialize_data();
    void serialize();
    void reformattedTextGivesSameBytes();
};

namespace {

// Any JSON value from text; QJsonDocument takes only objects and arrays, hence the wrapper.
QJsonValue parsed(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson('[' + json + ']', &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("test input is not JSON: %s", json.constData());
    return document.array().at(0);
}

} // namespace

void TestCanonicalJson::serialize_data()
{
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QByteArray>("expected");

    // Key order: UTF-16 code units, as JavaScript's default sort.
    QTest::addRow("keys sorted") << parsed(R"({"b":1,"a":2,"c":3})") << QByteArray(R"({"a":2,"b":1,"c":3})");
    QTest::addRow("upper case before lower case")
        << parsed(R"({"a":1,"B":2,"A":3,"b":4})") << QByteArray(R"({"A":3,"B":2,"a":1,"b":4})");
    QTest::addRow("prefix sorts first")
        << parsed(R"({"ab":1,"a":2,"":3})") << QByteArray(R"({"":3,"a":2,"ab":1})");
    QTest::addRow("non-ASCII after ASCII")
        << parsed(R"({"é":1,"z":2,"Z":3})") << QByteArray(R"({"Z":3,"z":2,"é":1})");
    // U+1F600 is the surrogate pair D83D DE00, below U+FF01 in code units though above it
    // in code points: code-unit order puts the emoji first, as JavaScript does.
    QTest::addRow("surrogate pair before U+FF01")
        << parsed(R"({"\uff01":1,"\ud83d\ude00":2})")
        << QByteArray("{\"\xf0\x9f\x98\x80\":2,\"\xef\xbc\x81\":1}");

    // Found by fuzz_canonicaljson: Qt 6.4's QJsonObject::value() answers null for the
    // second key here, so members must be read by iteration.
    QTest::addRow("key beside one with U+0000 after a non-BMP character")
        << parsed("{\"\xf0\x9f\x98\x80\\u0000\":6,\"\xee\x80\x80\":5}")
        << QByteArray("{\"\xf0\x9f\x98\x80\\u0000\":6,\"\xee\x80\x80\":5}");

    // Nesting and layout.
    QTest::addRow("nested, whitespace removed")
        << parsed(" { \"z\" : [ 3 , { \"y\" : null , \"x\" : true } ] , \"a\" : { \"d\" : false , \"c\" : [ "
                  "] } } ")
        << QByteArray(R"({"a":{"c":[],"d":false},"z":[3,{"x":true,"y":null}]})");
    QTest::addRow("array order kept") << parsed("[3,1,2]") << QByteArray("[3,1,2]");
    QTest::addRow("empty object") << parsed("{}") << QByteArray("{}");
    QTest::addRow("empty array") << parsed("[]") << QByteArray("[]");
    QTest::addRow("null") << QJsonValue() << QByteArray("null");
    QTest::addRow("undefined") << QJsonValue(QJsonValue::Undefined) << QByteArray("null");
    QTest::addRow("true") << QJsonValue(true) << QByteArray("true");
    QTest::addRow("false") << QJsonValue(false) << QByteArray("false");

    // Strings: only what JSON requires is escaped.
    QTest::addRow("quote and backslash") << QJsonValue(uR"(a"b\c)"_s) << QByteArray(R"("a\"b\\c")");
    QTest::addRow("short escapes") << QJsonValue(u"\b\f\n\r\t"_s) << QByteArray(R"("\b\f\n\r\t")");
    QTest::addRow("other control characters, lower-case hex")
        << QJsonValue(QString(QChar(0x01)) + QChar(0x1f) + QChar(0x00) + QChar(0x0b))
        << QByteArray(R"("\u0001\u001f\u0000\u000b")");
    QTest::addRow("DEL and slash unescaped") << QJsonValue(u"\x7f/"_s) << QByteArray("\"\x7f/\"");
    QTest::addRow("escaped input is not re-escaped")
        << parsed(R"("\u0041\/\u00e9")") << QByteArray("\"A/\xc3\xa9\"");
    QTest::addRow("non-ASCII as UTF-8")
        << QJsonValue(u"Zürich — 東京 😀"_s)
        << QByteArray("\"Z\xc3\xbcrich \xe2\x80\x94 \xe6\x9d\xb1\xe4\xba\xac \xf0\x9f\x98\x80\"");
    QTest::addRow("U+2028 as UTF-8") << parsed(R"("\u2028")") << QByteArray("\"\xe2\x80\xa8\"");

    // Numbers.
    QTest::addRow("1") << parsed("1") << QByteArray("1");
    QTest::addRow("1.0 is an integer") << parsed("1.0") << QByteArray("1");
    QTest::addRow("1e2 is an integer") << parsed("1e2") << QByteArray("100");
    QTest::addRow("double 2.0 built in code") << QJsonValue(2.0) << QByteArray("2");
    QTest::addRow("1.5") << parsed("1.5") << QByteArray("1.5");
    QTest::addRow("0.1 shortest") << parsed("0.1") << QByteArray("0.1");
    QTest::addRow("0.1+0.2 keeps its digits") << QJsonValue(0.1 + 0.2) << QByteArray("0.30000000000000004");
    QTest::addRow("-0 parsed") << parsed("-0") << QByteArray("0");
    QTest::addRow("-0.0 built in code") << QJsonValue(-0.0) << QByteArray("0");
    QTest::addRow("negative") << parsed("-42.25") << QByteArray("-42.25");
    QTest::addRow("1e21 beyond 64 bits") << parsed("1e21") << QByteArray("1e+21");
    QTest::addRow("1e-7") << parsed("1e-7") << QByteArray("1e-07");
    QTest::addRow("2^53+1 exact") << parsed("9007199254740993") << QByteArray("9007199254740993");
    QTest::addRow("int64 max exact") << parsed("9223372036854775807") << QByteArray("9223372036854775807");
    QTest::addRow("int64 min exact") << parsed("-9223372036854775808") << QByteArray("-9223372036854775808");
    QTest::addRow("1e18 as double built in code") << QJsonValue(1e18) << QByteArray("1000000000000000000");
    // Beyond qint64: QByteArray::number picks the shorter of fixed and exponent notation.
    QTest::addRow("2^63 as double") << QJsonValue(9223372036854775808.0) << QByteArray("9223372036854776000");
    QTest::addRow("largest double") << parsed("1.7976931348623157e308")
                                    << QByteArray("1.7976931348623157e+308");
    QTest::addRow("NaN as null") << QJsonValue(std::numeric_limits<double>::quiet_NaN())
                                 << QByteArray("null");
    QTest::addRow("infinity as null")
        << QJsonValue(std::numeric_limits<double>::infinity()) << QByteArray("null");
}

void TestCanonicalJson::serialize()
{
    QFETCH(QJsonValue, value);
    QFETCH(QByteArray, expected);

    QCOMPARE(CanonicalJson::serialize(value), expected);
}

void TestCanonicalJson::reformattedTextGivesSameBytes()
{
    const QJsonValue compact = parsed(
        R"({"type":"object","required":["lat","lon"],"properties":{"lon":{"type":"number"},"lat":{"type":"number"}}})");
    const QJsonValue spread =
        parsed("{\n  \"properties\": {\n    \"lat\": { \"type\": \"number\" },\n"
               "    \"lon\": {\"type\":\"number\"}\n  },\n  \"required\": [\"lat\", \"lon\"],\n"
               "  \"type\": \"object\"\n}\n");
    QCOMPARE(CanonicalJson::serialize(compact), CanonicalJson::serialize(spread));
}

QTEST_GUILESS_MAIN(TestCanonicalJson)
#include "tst_canonicaljson.moc"
