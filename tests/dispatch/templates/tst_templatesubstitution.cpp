#include "dispatch/templates/templatesubstitution.h"

#include <QTest>

#include <limits>

using namespace Qt::StringLiterals;

// SPEC §2 subVars, one row per rule: every placeholder form in each mode, the escaping
// of each mode, and the JSON checks that stop a broken payload before it is sent.
class TestTemplateSubstitution : public QObject
{
    Q_OBJECT

private slots:
    void substitute_data();
    void substitute();
    void jsonError_data();
    void jsonError();
    void placeholders_data();
    void placeholders();
    void modeForPayload_data();
    void modeForPayload();
    void encodeUriComponent_data();
    void encodeUriComponent();
    void escapeJsonString_data();
    void escapeJsonString();
    void splitBody_data();
    void splitBody();
};

namespace {

// prev: an invalid QVariant means "no previous step"; bindings: "NAME=value" each.
TemplateContext context(const QString &body, const QVariant &prev, const QStringList &bindings)
{
    TemplateContext ctx;
    ctx.args = TemplateContext::splitBody(body);
    if (prev.isValid())
        ctx.prev = prev.toString();
    for (const QString &binding : bindings) {
        const qsizetype equals = binding.indexOf(u'=');
        ctx.bindings.insert(binding.left(equals), binding.mid(equals + 1));
    }
    return ctx;
}

QString describe(const TemplatePlaceholder &placeholder)
{
    static const char *const kinds[] = {"Arg", "ArgRest", "Prev", "Name"};
    QString text = QLatin1String(kinds[int(placeholder.kind)]);
    if (placeholder.raw)
        text += QStringLiteral(" raw");
    if (placeholder.kind == TemplatePlaceholder::Kind::Arg
        || placeholder.kind == TemplatePlaceholder::Kind::ArgRest)
        text += u' ' + QString::number(placeholder.index);
    else
        text += u' ' + placeholder.name;
    return text + QStringLiteral(" @%1+%2").arg(placeholder.start).arg(placeholder.length);
}

const QString twelveArgs = QStringLiteral("a1|a2|a3|a4|a5|a6|a7|a8|a9|a10|a11|a12");
const QString temperatureUrl =
    QStringLiteral("https://api.open-meteo.com/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m");

} // namespace

void TestTemplateSubstitution::substitute_data()
{
    QTest::addColumn<QString>("tmpl");
    QTest::addColumn<TemplateMode>("mode");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QVariant>("prev");
    QTest::addColumn<QStringList>("bindings");
    QTest::addColumn<QString>("expected");

    const auto raw = TemplateMode::Raw;
    const auto url = TemplateMode::Url;
    const auto json = TemplateMode::Json;
    const QVariant noPrev;
    const QStringList none;

    // $N
    QTest::addRow("$1") << u"$1"_s << raw << u"x"_s << noPrev << none << u"x"_s;
    QTest::addRow("$2 of three") << u"<$2>"_s << raw << u"a|b|c"_s << noPrev << none << u"<b>"_s;
    QTest::addRow("$12 is one placeholder") << u"$12"_s << raw << twelveArgs << noPrev << none << u"a12"_s;
    QTest::addRow("$10 past the args is empty") << u"[$10]"_s << raw << u"a|b"_s << noPrev << none << u"[]"_s;
    QTest::addRow("missing arg is empty") << u"[$3]"_s << raw << u"a"_s << noPrev << none << u"[]"_s;
    QTest::addRow("empty body: $1 empty") << u"[$1]"_s << raw << QString() << noPrev << none << u"[]"_s;
    QTest::addRow("empty body: $2 empty") << u"[$1,$2]"_s << raw << u""_s << noPrev << none << u"[,]"_s;
    QTest::addRow("empty pieces") << u"$1.$2.$3"_s << raw << u"|b|"_s << noPrev << none << u".b."_s;
    QTest::addRow("$0 is literal") << u"$0 $1"_s << raw << u"a"_s << noPrev << none << u"$0 a"_s;
    QTest::addRow("$00 is literal") << u"$00+"_s << raw << u"a"_s << noPrev << none << u"$00+"_s;
    QTest::addRow("$01 is arg 1") << u"$01"_s << raw << u"a|b"_s << noPrev << none << u"a"_s;
    QTest::addRow("$1abc: text after the digits")
        << u"$1abc"_s << raw << u"v"_s << noPrev << none << u"vabc"_s;
    QTest::addRow("$1A: a capital after the digits")
        << u"$1A_"_s << raw << u"v"_s << noPrev << none << u"vA_"_s;
    QTest::addRow("huge index is past every arg")
        << u"[$99999999999999999999]"_s << raw << u"a"_s << noPrev << none << u"[]"_s;
    QTest::addRow("values are not rescanned") << u"$1"_s << raw << u"$2|x"_s << noPrev << none << u"$2"_s;

    // $N+
    QTest::addRow("$N+ at the end") << u"x=$2+"_s << raw << u"a|b|c"_s << noPrev << none << u"x=b|c"_s;
    QTest::addRow("$N+ in the middle") << u"($1+)"_s << raw << u"a|b"_s << noPrev << none << u"(a|b)"_s;
    QTest::addRow("$N+ on the last arg") << u"$3+"_s << raw << u"a|b|c"_s << noPrev << none << u"c"_s;
    QTest::addRow("$N+ past the end is empty")
        << u"[$4+]"_s << raw << u"a|b|c"_s << noPrev << none << u"[]"_s;
    QTest::addRow("$N+ keeps empty pieces") << u"$2+"_s << raw << u"a||c|"_s << noPrev << none << u"|c|"_s;
    QTest::addRow("$1++") << u"$1++"_s << raw << u"a|b"_s << noPrev << none << u"a|b+"_s;
    QTest::addRow("$12+") << u"$11+"_s << raw << twelveArgs << noPrev << none << u"a11|a12"_s;

    // Literal dollars
    QTest::addRow("lone $") << u"cost $ 5 $"_s << raw << u"a"_s << noPrev << none << u"cost $ 5 $"_s;
    QTest::addRow("$ before lower case")
        << u"$name $x1"_s << raw << u"a"_s << noPrev << none << u"$name $x1"_s;
    QTest::addRow("$$ alone") << u"$$ $$a"_s << raw << u"a"_s << noPrev << none << u"$$ $$a"_s;
    QTest::addRow("$$$1") << u"$$$1"_s << raw << u"v"_s << noPrev << none << u"$v"_s;

    // $PREV and $NAME
    QTest::addRow("$PREV absent stays")
        << u"got $PREV"_s << raw << u"a"_s << noPrev << none << u"got $PREV"_s;
    QTest::addRow("$PREV present") << u"got $PREV"_s << raw << u"a"_s << QVariant(u"out"_s) << none
                                   << u"got out"_s;
    QTest::addRow("$PREV present but empty")
        << u"got $PREV."_s << raw << u"a"_s << QVariant(u""_s) << none << u"got ."_s;
    QTest::addRow("binding PREV is not $PREV")
        << u"$PREV"_s << raw << u"a"_s << noPrev << QStringList{u"PREV=b"_s} << u"$PREV"_s;
    QTest::addRow("$PREVIOUS is a binding") << u"$PREVIOUS $PREV"_s << raw << u"a"_s << QVariant(u"p"_s)
                                            << QStringList{u"PREVIOUS=x"_s} << u"x p"_s;
    QTest::addRow("$PREVIOUS unbound stays")
        << u"$PREVIOUS"_s << raw << u"a"_s << QVariant(u"p"_s) << none << u"$PREVIOUS"_s;
    QTest::addRow("unbound $NAME stays")
        << u"to $CITY!"_s << raw << u"a"_s << noPrev << none << u"to $CITY!"_s;
    QTest::addRow("bound $NAME") << u"to $CITY!"_s << raw << u"a"_s << noPrev << QStringList{u"CITY=SF"_s}
                                 << u"to SF!"_s;
    QTest::addRow("bound $NAME empty")
        << u"[$CITY]"_s << raw << u"a"_s << noPrev << QStringList{u"CITY="_s} << u"[]"_s;
    QTest::addRow("$_X and digits") << u"$_X $A1"_s << raw << u"a"_s << noPrev
                                    << QStringList{u"_X=u"_s, u"A1=v"_s} << u"u v"_s;
    QTest::addRow("$NAME stops at lower case")
        << u"$CITYname"_s << raw << u"a"_s << noPrev << QStringList{u"CITY=SF"_s} << u"SFname"_s;

    // $$ in raw mode: the same value
    QTest::addRow("raw: $$1") << u"$$1"_s << raw << u"a\"b"_s << noPrev << none << u"a\"b"_s;
    QTest::addRow("raw: $$2+") << u"$$2+"_s << raw << u"a|b|c"_s << noPrev << none << u"b|c"_s;
    QTest::addRow("raw: $$PREV") << u"$$PREV"_s << raw << u"a"_s << QVariant(u"p q"_s) << none << u"p q"_s;
    QTest::addRow("raw: $$NAME unbound keeps $$")
        << u"$$CITY $$PREV"_s << raw << u"a"_s << noPrev << none << u"$$CITY $$PREV"_s;
    QTest::addRow("raw: quotes verbatim")
        << u"say $1"_s << raw << u"a\"b<&>"_s << noPrev << none << u"say a\"b<&>"_s;

    // Url
    QTest::addRow("url: ZZ_TEST_TEMPERATURE")
        << temperatureUrl << url << u"37.77|-122.42"_s << noPrev << none
        << u"https://api.open-meteo.com/v1/forecast?latitude=37.77&longitude=-122.42&current=temperature_2m"_s;
    QTest::addRow("url: DIR_PATCH target")
        << u"https://miscsubjects.com/api/directory/$1"_s << url << u"ROUTER|{\"content\":\"a|b\"}"_s
        << noPrev << none << u"https://miscsubjects.com/api/directory/ROUTER"_s;
    QTest::addRow("url: space") << u"q=$1"_s << url << u"a b"_s << noPrev << none << u"q=a%20b"_s;
    QTest::addRow("url: reserved") << u"q=$1"_s << url << u"a&b=c/d?e#f,g;h:i@j$k"_s << noPrev << none
                                   << u"q=a%26b%3Dc%2Fd%3Fe%23f%2Cg%3Bh%3Ai%40j%24k"_s;
    QTest::addRow("url: plus and percent")
        << u"q=$1"_s << url << u"1+1=2%"_s << noPrev << none << u"q=1%2B1%3D2%25"_s;
    QTest::addRow("url: unreserved kept")
        << u"q=$1"_s << url << u"AZaz09-_.!~*'()"_s << noPrev << none << u"q=AZaz09-_.!~*'()"_s;
    QTest::addRow("url: unicode") << u"q=$1"_s << url << u"é東京😀"_s << noPrev << none
                                  << u"q=%C3%A9%E6%9D%B1%E4%BA%AC%F0%9F%98%80"_s;
    QTest::addRow("url: $N+ encodes the pipe")
        << u"q=$1+"_s << url << u"a|b"_s << noPrev << none << u"q=a%7Cb"_s;
    QTest::addRow("url: $$1 is not encoded")
        << u"q=$$1"_s << url << u"a b&c"_s << noPrev << none << u"q=a b&c"_s;
    QTest::addRow("url: template text is not encoded")
        << u"https://x/a b?q=$1&r=é"_s << url << u"é"_s << noPrev << none << u"https://x/a b?q=%C3%A9&r=é"_s;
    QTest::addRow("url: $PREV and binding encoded")
        << u"/$PREV/$CITY/$ZIP"_s << url << u"a"_s << QVariant(u"a/b"_s)
        << QStringList{u"CITY=San Francisco"_s} << u"/a%2Fb/San%20Francisco/$ZIP"_s;

    // Json inside string literals
    QTest::addRow("json: SPEC quote example")
        << u"{\"content\":\"$1\"}"_s << json << u"a\"b"_s << noPrev << none << u"{\"content\":\"a\\\"b\"}"_s;
    QTest::addRow("json: $1+ keeps the pipe")
        << u"[\"$1+\"]"_s << json << u"a|b"_s << noPrev << none << u"[\"a|b\"]"_s;
    QTest::addRow("json: backslash") << u"[\"$1\"]"_s << json << u"C:\\dir"_s << noPrev << none
                                     << u"[\"C:\\\\dir\"]"_s;
    QTest::addRow("json: control characters")
        << u"[\"$1\"]"_s << json << u"a\nb\tc\rd\be\ff\u0001g\u001f"_s << noPrev << none
        << u"[\"a\\nb\\tc\\rd\\be\\ff\\u0001g\\u001f\"]"_s;
    QTest::addRow("json: unicode passes")
        << u"[\"$1\"]"_s << json << u"東京😀/é"_s << noPrev << none << u"[\"東京😀/é\"]"_s;
    QTest::addRow("json: lone surrogate escaped")
        << u"[\"$1\"]"_s << json << QString(QChar(0xD800)) << noPrev << none << u"[\"\\ud800\"]"_s;
    QTest::addRow("json: escaped quote in the template")
        << u"{\"a\":\"x\\\"$1\"}"_s << json << u"y\""_s << noPrev << none << u"{\"a\":\"x\\\"y\\\"\"}"_s;
    QTest::addRow("json: escaped backslash ends the string")
        << u"{\"a\":\"x\\\\\",\"b\":$1}"_s << json << u"hi"_s << noPrev << none
        << u"{\"a\":\"x\\\\\",\"b\":\"hi\"}"_s;
    QTest::addRow("json: placeholder after a backslash")
        << u"[\"\\$1\"]"_s << json << u"n"_s << noPrev << none << u"[\"\\n\"]"_s;
    QTest::addRow("json: in a member name")
        << u"{\"$1\":1}"_s << json << u"k\""_s << noPrev << none << u"{\"k\\\"\":1}"_s;
    QTest::addRow("json: literal $ in a string")
        << u"{\"price\":\"$ 5 $0\"}"_s << json << u"a"_s << noPrev << none << u"{\"price\":\"$ 5 $0\"}"_s;
    QTest::addRow("json: unbound name in a string stays")
        << u"{\"a\":\"$CITY\"}"_s << json << u"a"_s << noPrev << none << u"{\"a\":\"$CITY\"}"_s;
    QTest::addRow("json: $PREV in a string")
        << u"{\"p\":\"$PREV\"}"_s << json << u"a"_s << QVariant(u"say \"hi\"\n"_s) << none
        << u"{\"p\":\"say \\\"hi\\\"\\n\"}"_s;
    QTest::addRow("json: $$1 in a string is raw")
        << u"{\"a\":\"$$1\"}"_s << json << u"x\\u0041"_s << noPrev << none << u"{\"a\":\"x\\u0041\"}"_s;
    QTest::addRow("json: fn default template, empty body")
        << u"[\"$1\"]"_s << json << QString() << noPrev << none << u"[\"\"]"_s;

    // Json outside string literals
    QTest::addRow("json: number") << u"{\"n\":$1}"_s << json << u"42"_s << noPrev << none << u"{\"n\":42}"_s;
    QTest::addRow("json: word is quoted")
        << u"{\"n\":$1}"_s << json << u"hi"_s << noPrev << none << u"{\"n\":\"hi\"}"_s;
    QTest::addRow("json: exponent number")
        << u"[$1]"_s << json << u"-1.5e+3"_s << noPrev << none << u"[-1.5e+3]"_s;
    QTest::addRow("json: true false null")
        << u"[$1,$2,$3]"_s << json << u"true|false|null"_s << noPrev << none << u"[true,false,null]"_s;
    QTest::addRow("json: object") << u"{\"v\":$1}"_s << json << u"{\"a\":[1,2]}"_s << noPrev << none
                                  << u"{\"v\":{\"a\":[1,2]}}"_s;
    QTest::addRow("json: array") << u"{\"v\":$1}"_s << json << u"[1, \"x\"]"_s << noPrev << none
                                 << u"{\"v\":[1, \"x\"]}"_s;
    QTest::addRow("json: quoted string as is")
        << u"{\"v\":$1}"_s << json << u"\"q\""_s << noPrev << none << u"{\"v\":\"q\"}"_s;
    QTest::addRow("json: white space around a value")
        << u"[$1]"_s << json << u" 42 "_s << noPrev << none << u"[ 42 ]"_s;
    QTest::addRow("json: leading zero is quoted")
        << u"[$1]"_s << json << u"01"_s << noPrev << none << u"[\"01\"]"_s;
    QTest::addRow("json: Qt-only number is quoted")
        << u"[$1,$2]"_s << json << u".5|1."_s << noPrev << none << u"[\".5\",\"1.\"]"_s;
    QTest::addRow("json: broken JSON value is quoted")
        << u"[$1]"_s << json << u"[1,"_s << noPrev << none << u"[\"[1,\"]"_s;
    QTest::addRow("json: empty value is an empty string")
        << u"{\"n\":$1}"_s << json << QString() << noPrev << none << u"{\"n\":\"\"}"_s;
    QTest::addRow("json: quoted with escapes")
        << u"[$1]"_s << json << u"a\"b\n"_s << noPrev << none << u"[\"a\\\"b\\n\"]"_s;
    QTest::addRow("json: $2+ object keeps its pipe")
        << u"{\"patch\":$2+}"_s << json << u"ROUTER|{\"content\":\"a|b\"}"_s << noPrev << none
        << u"{\"patch\":{\"content\":\"a|b\"}}"_s;
    QTest::addRow("json: $1+ joined then quoted")
        << u"[$1+]"_s << json << u"a|b"_s << noPrev << none << u"[\"a|b\"]"_s;
    QTest::addRow("json: member name outside a string")
        << u"{$1:1}"_s << json << u"k"_s << noPrev << none << u"{\"k\":1}"_s;
    QTest::addRow("json: $PREV object") << u"{\"prev\":$PREV}"_s << json << u"a"_s << QVariant(u"{\"x\":1}"_s)
                                        << none << u"{\"prev\":{\"x\":1}}"_s;
    QTest::addRow("json: $$1 outside a string")
        << u"{\"a\":$$1}"_s << json << u"[1, 2]"_s << noPrev << none << u"{\"a\":[1, 2]}"_s;
    QTest::addRow("json: message body")
        << u"{\"channel\":\"$1\",\"to\":\"$2\",\"text\":\"$3+\"}"_s << json
        << u"blooio|+15550100|hi | \"there\""_s << noPrev << none
        << u"{\"channel\":\"blooio\",\"to\":\"+15550100\",\"text\":\"hi | \\\"there\\\"\"}"_s;

    // The article's rows
    QTest::addRow("DIR_PATCH payload $2+ (raw)")
        << u"$2+"_s << TemplateSubstitution::modeForPayload(u"$2+") << u"ROUTER|{\"content\":\"a|b\"}"_s
        << noPrev << none << u"{\"content\":\"a|b\"}"_s;
    QTest::addRow("BLOOIO_FINISH step body")
        << u"blooio|$2|$PREV"_s << raw << u"[REPLY]hi[/REPLY]|+15550100"_s << QVariant(u"hi"_s) << none
        << u"blooio|+15550100|hi"_s;
    QTest::addRow("flow step default body $PREV")
        << u"$PREV"_s << raw << u"whole|body"_s << QVariant(u"whole|body"_s) << none << u"whole|body"_s;
}

void TestTemplateSubstitution::substitute()
{
    QFETCH(QString, tmpl);
    QFETCH(TemplateMode, mode);
    QFETCH(QString, body);
    QFETCH(QVariant, prev);
    QFETCH(QStringList, bindings);
    QFETCH(QString, expected);

    const TemplateResult result = TemplateSubstitution::apply(tmpl, context(body, prev, bindings), mode);
    QCOMPARE(result.error, QString());
    QVERIFY(result.ok());
    QCOMPARE(result.text, expected);
}

void TestTemplateSubstitution::jsonError_data()
{
    QTest::addColumn<QString>("tmpl");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");

    const QString prefix = u"ERR: template: payload is not valid JSON after substitution: "_s;
    QTest::addRow("$$1 breaks out of a string") << u"{\"a\":\"$$1\"}"_s << u"a\"b"_s << u"{\"a\":\"a\"b\"}"_s
                                                << prefix + u"line 1, column 9: expected ',' or '}'"_s;
    QTest::addRow("$$1 raw word outside a string")
        << u"{\"a\":$$1}"_s << u"hi"_s << u"{\"a\":hi}"_s << prefix + u"line 1, column 6: expected a value"_s;
    QTest::addRow("$$1 raw control character")
        << u"[\"$$1\"]"_s << u"a\nb"_s << u"[\"a\nb\"]"_s
        << prefix + u"line 1, column 4: unescaped control character in a string"_s;
    QTest::addRow("unbound name outside a string") << u"{\"a\":$CITY}"_s << u"x"_s << u"{\"a\":$CITY}"_s
                                                   << prefix + u"line 1, column 6: expected a value"_s;
    QTest::addRow("absent $PREV outside a string")
        << u"[$PREV]"_s << u"x"_s << u"[$PREV]"_s << prefix + u"line 1, column 2: expected a value"_s;
    QTest::addRow("broken template") << u"{\"a\":$1"_s << u"1"_s << u"{\"a\":1"_s
                                     << prefix + u"line 1, column 7: expected ',' or '}'"_s;
    QTest::addRow("text after the document") << u"[\"$1\"] x"_s << u"1"_s << u"[\"1\"] x"_s
                                             << prefix + u"line 1, column 7: text after the JSON value"_s;
    QTest::addRow("position on a later line")
        << u"{\n  \"a\": \"$1\",\n  \"b\": $$2\n}"_s << u"x|y z"_s << u"{\n  \"a\": \"x\",\n  \"b\": y z\n}"_s
        << prefix + u"line 3, column 8: expected a value"_s;
    QTest::addRow("bad escape in the template") << u"[\"\\x$1\"]"_s << u"1"_s << u"[\"\\x1\"]"_s
                                                << prefix + u"line 1, column 4: invalid escape sequence"_s;
}

void TestTemplateSubstitution::jsonError()
{
    QFETCH(QString, tmpl);
    QFETCH(QString, body);
    QFETCH(QString, text);
    QFETCH(QString, error);

    TemplateContext ctx;
    ctx.args = TemplateContext::splitBody(body);
    const TemplateResult result = TemplateSubstitution::apply(tmpl, ctx, TemplateMode::Json);
    QVERIFY(!result.ok());
    QCOMPARE(result.error, error);
    QCOMPARE(result.text, text);
}

void TestTemplateSubstitution::placeholders_data()
{
    QTest::addColumn<QString>("tmpl");
    QTest::addColumn<QStringList>("expected");

    QTest::addRow("none") << u"plain text, $ and $0 and $a"_s << QStringList();
    QTest::addRow("ZZ_TEST_TEMPERATURE") << temperatureUrl << QStringList{u"Arg 1 @48+2"_s, u"Arg 2 @61+2"_s};
    QTest::addRow("every form") << u"$1+ $$2 $PREV $$NAME $12 $$3+"_s
                                << QStringList{u"ArgRest 1 @0+3"_s, u"Arg raw 2 @4+3"_s,
                                               u"Prev PREV @8+5"_s, u"Name raw NAME @14+6"_s,
                                               u"Arg 12 @21+3"_s,   u"ArgRest raw 3 @25+4"_s};
    QTest::addRow("$$$1") << u"$$$1"_s << QStringList{u"Arg raw 1 @1+3"_s};
    QTest::addRow("$PREVIOUS") << u"$PREVIOUS"_s << QStringList{u"Name PREVIOUS @0+9"_s};
    QTest::addRow("adjacent") << u"$1$2$A_1"_s
                              << QStringList{u"Arg 1 @0+2"_s, u"Arg 2 @2+2"_s, u"Name A_1 @4+4"_s};
    QTest::addRow("text after digits") << u"x$1abc"_s << QStringList{u"Arg 1 @1+2"_s};
    QTest::addRow("saturated index")
        << u"$99999999999"_s
        << QStringList{QStringLiteral("Arg %1 @0+12").arg(std::numeric_limits<int>::max())};
    QTest::addRow("DIR_PATCH") << u"$2+"_s << QStringList{u"ArgRest 2 @0+3"_s};
}

void TestTemplateSubstitution::placeholders()
{
    QFETCH(QString, tmpl);
    QFETCH(QStringList, expected);

    QStringList found;
    for (const TemplatePlaceholder &placeholder : TemplateSubstitution::placeholders(tmpl))
        found.append(describe(placeholder));
    QCOMPARE(found, expected);
}

void TestTemplateSubstitution::modeForPayload_data()
{
    QTest::addColumn<QString>("payload");
    QTest::addColumn<TemplateMode>("mode");

    QTest::addRow("object") << u"{\"a\":1}"_s << TemplateMode::Json;
    QTest::addRow("array after blanks") << u" \r\n\t[\"$1\"]"_s << TemplateMode::Json;
    QTest::addRow("DIR_PATCH $2+") << u"$2+"_s << TemplateMode::Raw;
    QTest::addRow("text then brace") << u"x {\"a\":1}"_s << TemplateMode::Raw;
    QTest::addRow("empty") << QString() << TemplateMode::Raw;
    QTest::addRow("blank") << u"  \n "_s << TemplateMode::Raw;
}

void TestTemplateSubstitution::modeForPayload()
{
    QFETCH(QString, payload);
    QFETCH(TemplateMode, mode);
    QCOMPARE(TemplateSubstitution::modeForPayload(payload), mode);
}

void TestTemplateSubstitution::encodeUriComponent_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("expected");

    // Expected values are what JavaScript's encodeURIComponent returns.
    QTest::addRow("empty") << QString() << QString();
    QTest::addRow("unreserved") << u"AZaz09-_.!~*'()"_s << u"AZaz09-_.!~*'()"_s;
    QTest::addRow("reserved") << u";,/?:@&=+$#"_s << u"%3B%2C%2F%3F%3A%40%26%3D%2B%24%23"_s;
    QTest::addRow("other ASCII") << u" \"%<>[\\]^`{|}"_s << u"%20%22%25%3C%3E%5B%5C%5D%5E%60%7B%7C%7D"_s;
    QTest::addRow("controls") << u"\n\t\u007f"_s << u"%0A%09%7F"_s;
    QTest::addRow("two-byte") << u"é"_s << u"%C3%A9"_s;
    QTest::addRow("three-byte") << u"東"_s << u"%E6%9D%B1"_s;
    QTest::addRow("four-byte") << u"😀"_s << u"%F0%9F%98%80"_s;
    QTest::addRow("lone surrogate") << QString(QChar(0xDC00)) << u"%EF%BF%BD"_s;
}

void TestTemplateSubstitution::encodeUriComponent()
{
    QFETCH(QString, value);
    QFETCH(QString, expected);
    QCOMPARE(TemplateSubstitution::encodeUriComponent(value), expected);
}

void TestTemplateSubstitution::escapeJsonString_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("expected");

    // Expected values are what JSON.stringify writes between the quotes.
    QTest::addRow("plain") << u"abc / é 😀"_s << u"abc / é 😀"_s;
    QTest::addRow("quote and backslash") << u"\"\\"_s << u"\\\"\\\\"_s;
    QTest::addRow("short escapes") << u"\b\f\n\r\t"_s << u"\\b\\f\\n\\r\\t"_s;
    QTest::addRow("other controls") << u"\u0000\u001f"_s << u"\\u0000\\u001f"_s;
    QTest::addRow("DEL and U+2028 unchanged") << u"\u007f\u2028"_s << u"\u007f\u2028"_s;
    QTest::addRow("lone surrogates") << QString(QChar(0xDBFF)) + u'x' + QChar(0xDC00) << u"\\udbffx\\udc00"_s;
}

void TestTemplateSubstitution::escapeJsonString()
{
    QFETCH(QString, value);
    QFETCH(QString, expected);
    QCOMPARE(TemplateSubstitution::escapeJsonString(value), expected);
}

void TestTemplateSubstitution::splitBody_data()
{
    QTest::addColumn<QString>("body");
    QTest::addColumn<QStringList>("args");

    QTest::addRow("null") << QString() << QStringList{QString()};
    QTest::addRow("empty") << u""_s << QStringList{QString()};
    QTest::addRow("one") << u"a"_s << QStringList{u"a"_s};
    QTest::addRow("two") << u"37.77|-122.42"_s << QStringList{u"37.77"_s, u"-122.42"_s};
    QTest::addRow("empty pieces") << u"|a||"_s << QStringList{QString(), u"a"_s, QString(), QString()};
}

void TestTemplateSubstitution::splitBody()
{
    QFETCH(QString, body);
    QFETCH(QStringList, args);
    QCOMPARE(TemplateContext::splitBody(body), args);
}

QTEST_GUILESS_MAIN(TestTemplateSubstitution)
#include "tst_templatesubstitution.moc"
