#include "dispatch/json/jsonsyntaxcheck.h"

#include <QTest>

using namespace Qt::StringLiterals;

// JsonSyntaxCheck accepts exactly RFC 8259 JSON texts, including bare scalars, and
// refuses what Qt's parser lets through; a refusal names the character position.
class TestJsonSyntaxCheck : public QObject
{
    Q_OBJECT

private slots:
    void valid_data();
    void valid();
    void invalid_data();
    void invalid();
};

void TestJsonSyntaxCheck::valid_data()
{
    QTest::addColumn<QString>("text");

    QTest::addRow("empty object") << u"{}"_s;
    QTest::addRow("empty array") << u"[ ]"_s;
    QTest::addRow("nested") << u"{\"a\":[1,{\"b\":null}],\"c\":{}}"_s;
    QTest::addRow("white space everywhere") << u" \t\r\n{ \"a\" : [ 1 , 2 ] }\n"_s;
    QTest::addRow("integer") << u"42"_s;
    QTest::addRow("negative zero") << u"-0"_s;
    QTest::addRow("fraction and exponent") << u"-12.5e-3"_s;
    QTest::addRow("capital exponent with plus") << u"1E+9"_s;
    QTest::addRow("huge number") << u"1e400"_s;
    QTest::addRow("true") << u"true"_s;
    QTest::addRow("false") << u"false"_s;
    QTest::addRow("null") << u"null"_s;
    QTest::addRow("string") << u"\"x\""_s;
    QTest::addRow("every escape") << u"\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\ude00\""_s;
    QTest::addRow("lone surrogate escape") << u"\"\\ud800\""_s;
    QTest::addRow("non-ASCII") << u"[\"東京😀\", \"\u007f\u2028\"]"_s;
    QTest::addRow("512 levels") << QString(512, u'[') + QString(512, u']');
}

void TestJsonSyntaxCheck::valid()
{
    QFETCH(QString, text);
    QVERIFY(JsonSyntaxCheck::isValid(text));
    const JsonSyntaxCheck check = JsonSyntaxCheck::check(text);
    QVERIFY(check.ok);
    QCOMPARE(check.message, QString());
    QCOMPARE(check.offset, -1);
}

void TestJsonSyntaxCheck::invalid_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("offset");
    QTest::addColumn<QString>("message");

    QTest::addRow("empty") << QString() << 0 << u"line 1, column 1: unexpected end of text"_s;
    QTest::addRow("blank") << u"  "_s << 2 << u"line 1, column 3: unexpected end of text"_s;
    QTest::addRow("bare word") << u"hi"_s << 0 << u"line 1, column 1: expected a value"_s;
    QTest::addRow("misspelt literal") << u"[tru]"_s << 1 << u"line 1, column 2: expected a value"_s;
    QTest::addRow("leading zero") << u"01"_s << 1 << u"line 1, column 2: text after the JSON value"_s;
    QTest::addRow("leading dot") << u".5"_s << 0 << u"line 1, column 1: expected a value"_s;
    QTest::addRow("trailing dot") << u"[1.]"_s << 3 << u"line 1, column 4: invalid number"_s;
    QTest::addRow("bare minus") << u"-"_s << 1 << u"line 1, column 2: invalid number"_s;
    QTest::addRow("exponent without digits") << u"1e+"_s << 3 << u"line 1, column 4: invalid number"_s;
    QTest::addRow("plus sign") << u"+1"_s << 0 << u"line 1, column 1: expected a value"_s;
    QTest::addRow("unknown escape") << u"\"\\x\""_s << 2 << u"line 1, column 3: invalid escape sequence"_s;
    QTest::addRow("short \\u") << u"\"\\u12\""_s << 5 << u"line 1, column 6: \\u needs four hex digits"_s;
    QTest::addRow("raw control character")
        << u"[\"a\tb\"]"_s << 3 << u"line 1, column 4: unescaped control character in a string"_s;
    QTest::addRow("unterminated string") << u"[\"abc"_s << 5 << u"line 1, column 6: unterminated string"_s;
    QTest::addRow("backslash at the end") << u"\"\\"_s << 2 << u"line 1, column 3: unterminated string"_s;
    QTest::addRow("trailing comma in array") << u"[1,]"_s << 3 << u"line 1, column 4: expected a value"_s;
    QTest::addRow("trailing comma in object")
        << u"{\"a\":1,}"_s << 7 << u"line 1, column 8: expected a string as the member name"_s;
    QTest::addRow("single quotes") << u"{'a':1}"_s << 1
                                   << u"line 1, column 2: expected a string as the member name"_s;
    QTest::addRow("missing colon") << u"{\"a\" 1}"_s << 5 << u"line 1, column 6: expected ':'"_s;
    QTest::addRow("missing comma in object")
        << u"{\"a\":1 \"b\":2}"_s << 7 << u"line 1, column 8: expected ',' or '}'"_s;
    QTest::addRow("missing comma in array") << u"[1 2]"_s << 3 << u"line 1, column 4: expected ',' or ']'"_s;
    QTest::addRow("unclosed object") << u"{\"a\":1"_s << 6 << u"line 1, column 7: expected ',' or '}'"_s;
    QTest::addRow("unclosed empty object") << u"{"_s << 1 << u"line 1, column 2: unexpected end of text"_s;
    QTest::addRow("two values") << u"{} {}"_s << 3 << u"line 1, column 4: text after the JSON value"_s;
    QTest::addRow("later line") << u"{\n  \"a\": [\n    1,\n  }\n}"_s << 20
                                << u"line 4, column 3: expected a value"_s;
    QTest::addRow("513 levels") << QString(513, u'[') + QString(513, u']') << 512
                                << u"line 1, column 513: nested more than 512 levels deep"_s;
}

void TestJsonSyntaxCheck::invalid()
{
    QFETCH(QString, text);
    QFETCH(int, offset);
    QFETCH(QString, message);

    QVERIFY(!JsonSyntaxCheck::isValid(text));
    const JsonSyntaxCheck check = JsonSyntaxCheck::check(text);
    QVERIFY(!check.ok);
    QCOMPARE(check.offset, offset);
    QCOMPARE(check.message, message);
}

QTEST_GUILESS_MAIN(TestJsonSyntaxCheck)
#include "tst_jsonsyntaxcheck.moc"
