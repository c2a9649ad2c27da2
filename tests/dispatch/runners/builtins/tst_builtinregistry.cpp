#include "dispatch/runners/builtins/builtinregistry.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>
#include <QThread>
#include <QTimeZone>

#include <thread>

using namespace Qt::StringLiterals;

// SPEC §3 fn builtins, called straight through the standard registry: one table row per
// case, normal, edge and error, for every builtin the spec names.
class TestBuiltinRegistry : public QObject
{
    Q_OBJECT

private slots:
    void builtins_data();
    void builtins();
    void namesListSpecBuiltins();
    void unknownNameIsAbsent();
    void addReplacesAndSorts();
    void nowIsOneInstantInPacificTime();
    void sleepWaits();
    void sleepStopsWhenCancelled();
};

namespace {

// How a row's expected text is compared: most outputs are exact; clock and random
// outputs and messages quoting a parser's wording are matched by a pattern.
enum class Match { Exact, Pattern };

QString call(const QString &name, const QStringList &args,
             std::shared_ptr<std::atomic_bool> cancelled = std::make_shared<std::atomic_bool>(false))
{
    const BuiltinFunction *fn = BuiltinRegistry::standard().find(name);
    return fn ? (*fn)(BuiltinCall{args, std::move(cancelled)}) : u"<no builtin %1>"_s.arg(name);
}

const QStringList specBuiltins{
    u"now"_s,    u"echo"_s,       u"upper"_s,         u"lower"_s,         u"trim"_s,     u"length"_s,
    u"concat"_s, u"json_get"_s,   u"last_reply_of"_s, u"regex_extract"_s, u"replace"_s,  u"sha256"_s,
    u"base64"_s, u"url_encode"_s, u"uuid"_s,          u"fail"_s,          u"sleep_ms"_s,
};

} // namespace

void TestBuiltinRegistry::builtins_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<Match>("match");

    const auto exact = [](const char *tag, const QString &name, const QStringList &args, const QString &out) {
        QTest::addRow("%s", tag) << name << args << out << Match::Exact;
    };
    const auto pattern = [](const char *tag, const QString &name, const QStringList &args,
                            const QString &re) {
        QTest::addRow("%s", tag) << name << args << re << Match::Pattern;
    };

    exact("echo: one arg", u"echo"_s, {u"hello"_s}, u"hello"_s);
    exact("echo: args joined with pipes", u"echo"_s, {u"a"_s, u"b"_s, u"c"_s}, u"a|b|c"_s);
    exact("echo: no args", u"echo"_s, {}, QString());
    exact("echo: keeps quotes and braces", u"echo"_s, {uR"({"content":"a|b"})"_s}, uR"({"content":"a|b"})"_s);

    exact("upper: ascii", u"upper"_s, {u"Hello, World 1"_s}, u"HELLO, WORLD 1"_s);
    exact("upper: full case mapping", u"upper"_s, {u"straße"_s}, u"STRASSE"_s);
    exact("upper: only arg 1", u"upper"_s, {u"a"_s, u"b"_s}, u"A"_s);
    exact("upper: no args", u"upper"_s, {}, QString());

    exact("lower: ascii", u"lower"_s, {u"MiXeD 123"_s}, u"mixed 123"_s);
    exact("lower: accented", u"lower"_s, {u"ÀÉÎ"_s}, u"àéî"_s);

    exact("trim: blanks, tabs and newlines", u"trim"_s, {u"  padded \t\r\n"_s}, u"padded"_s);
    exact("trim: inner blanks stay", u"trim"_s, {u" a  b "_s}, u"a  b"_s);
    exact("trim: blanks only", u"trim"_s, {u" \t "_s}, QString());

    exact("length: ascii", u"length"_s, {u"hello"_s}, u"5"_s);
    exact("length: empty", u"length"_s, {QString()}, u"0"_s);
    exact("length: no args", u"length"_s, {}, u"0"_s);
    exact("length: accented letter is one", u"length"_s, {u"héllo"_s}, u"5"_s);
    exact("length: emoji is one code point", u"length"_s, {u"😀a"_s}, u"2"_s);

    exact("concat: three args", u"concat"_s, {u"a"_s, u"b"_s, u"c"_s}, u"abc"_s);
    exact("concat: no args", u"concat"_s, {}, QString());
    exact("concat: pipes inside args kept", u"concat"_s, {u"a|"_s, u"|b"_s}, u"a||b"_s);

    const QString doc =
        uR"({"a":{"b":"x","n":1.5,"t":true,"z":null,"list":[{"c":1},{"c":2}],"0":"zero"},"s":"q\"uote"})"_s;
    exact("json_get: nested string unquoted", u"json_get"_s, {doc, u"a.b"_s}, u"x"_s);
    exact("json_get: array index", u"json_get"_s, {doc, u"a.list.1.c"_s}, u"2"_s);
    exact("json_get: array as compact JSON", u"json_get"_s, {doc, u"a.list"_s}, uR"([{"c":1},{"c":2}])"_s);
    exact("json_get: number", u"json_get"_s, {doc, u"a.n"_s}, u"1.5"_s);
    exact("json_get: boolean", u"json_get"_s, {doc, u"a.t"_s}, u"true"_s);
    exact("json_get: null", u"json_get"_s, {doc, u"a.z"_s}, u"null"_s);
    exact("json_get: numeric member of an object", u"json_get"_s, {doc, u"a.0"_s}, u"zero"_s);
    exact("json_get: escapes resolved", u"json_get"_s, {doc, u"s"_s}, u"q\"uote"_s);
    exact("json_get: empty path is the document", u"json_get"_s, {u"{ \"a\" : [1, 2] }"_s, QString()},
          uR"({"a":[1,2]})"_s);
    exact("json_get: scalar document", u"json_get"_s, {u"\"just text\""_s, QString()}, u"just text"_s);
    exact("json_get: missing member", u"json_get"_s, {doc, u"a.missing"_s},
          u"ERR: json_get: no value at a.missing"_s);
    exact("json_get: index past the end", u"json_get"_s, {doc, u"a.list.2"_s},
          u"ERR: json_get: no value at a.list.2"_s);
    exact("json_get: non-numeric index", u"json_get"_s, {doc, u"a.list.x"_s},
          u"ERR: json_get: no value at a.list.x"_s);
    exact("json_get: signed index", u"json_get"_s, {doc, u"a.list.+1"_s},
          u"ERR: json_get: no value at a.list.+1"_s);
    exact("json_get: path through a scalar", u"json_get"_s, {doc, u"a.b.c"_s},
          u"ERR: json_get: no value at a.b.c"_s);
    pattern("json_get: invalid JSON", u"json_get"_s, {u"{\"a\":"_s, u"a"_s},
            u"^ERR: json_get: invalid JSON: .+"_s);
    pattern("json_get: empty text", u"json_get"_s, {QString(), u"a"_s},
            u"^ERR: json_get: invalid JSON: .+"_s);

    exact("last_reply_of: one reply", u"last_reply_of"_s, {u"Hi there. [REPLY]See you at 5[/REPLY]"_s},
          u"See you at 5"_s);
    exact("last_reply_of: the last of several", u"last_reply_of"_s,
          {u"[REPLY]draft[/REPLY] thinking… [REPLY]final[/REPLY] trailing"_s}, u"final"_s);
    exact("last_reply_of: multi-line, trimmed", u"last_reply_of"_s,
          {u"x [REPLY]\n line 1\nline 2 \n[/REPLY]"_s}, u"line 1\nline 2"_s);
    exact("last_reply_of: unfinished reply ignored", u"last_reply_of"_s,
          {u"[REPLY]done[/REPLY] [REPLY]half"_s}, u"done"_s);
    exact("last_reply_of: pipes kept", u"last_reply_of"_s, {u"[REPLY]a|b[/REPLY]"_s}, u"a|b"_s);
    exact("last_reply_of: empty reply", u"last_reply_of"_s, {u"[REPLY][/REPLY]"_s}, QString());
    exact("last_reply_of: no reply", u"last_reply_of"_s, {u"just text"_s}, u"ERR: no reply"_s);
    exact("last_reply_of: close without open", u"last_reply_of"_s, {u"text[/REPLY]"_s}, u"ERR: no reply"_s);
    exact("last_reply_of: tags are case-sensitive", u"last_reply_of"_s, {u"[reply]x[/reply]"_s},
          u"ERR: no reply"_s);

    exact("regex_extract: first capture group", u"regex_extract"_s, {u"order 1234 shipped"_s, u"(\\d+)"_s},
          u"1234"_s);
    exact("regex_extract: whole match without groups", u"regex_extract"_s, {u"abc123"_s, u"[a-z]+"_s},
          u"abc"_s);
    exact("regex_extract: group 1 of several", u"regex_extract"_s, {u"k=v"_s, u"(\\w)=(\\w)"_s}, u"k"_s);
    exact("regex_extract: (?s) spans lines", u"regex_extract"_s,
          {u"start\nmiddle\nend"_s, u"(?s)start(.*)end"_s}, u"\nmiddle\n"_s);
    exact("regex_extract: no match", u"regex_extract"_s, {u"abc"_s, u"\\d"_s},
          u"ERR: regex_extract: no match"_s);
    pattern("regex_extract: bad pattern", u"regex_extract"_s, {u"abc"_s, u"(a"_s},
            u"^ERR: regex_extract: bad pattern: .+ at offset \\d+$"_s);

    exact("replace: every occurrence", u"replace"_s, {u"a-b-c"_s, u"-"_s, u"+"_s}, u"a+b+c"_s);
    exact("replace: with nothing", u"replace"_s, {u"a-b"_s, u"-"_s, QString()}, u"ab"_s);
    exact("replace: absent text", u"replace"_s, {u"abc"_s, u"x"_s, u"y"_s}, u"abc"_s);
    exact("replace: literal, not a pattern", u"replace"_s, {u"a.b.c"_s, u"."_s, u"/"_s}, u"a/b/c"_s);
    exact("replace: empty search text", u"replace"_s, {u"abc"_s, QString(), u"y"_s},
          u"ERR: replace: the text to replace is empty"_s);

    exact("sha256: empty", u"sha256"_s, {QString()},
          u"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"_s);
    exact("sha256: pangram", u"sha256"_s, {u"The quick brown fox jumps over the lazy dog"_s},
          u"d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"_s);
    exact("sha256: UTF-8 bytes", u"sha256"_s, {u"é"_s},
          u"4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c"_s);

    exact("base64: padded", u"base64"_s, {u"hello"_s}, u"aGVsbG8="_s);
    exact("base64: two pad characters", u"base64"_s, {u"a"_s}, u"YQ=="_s);
    exact("base64: UTF-8 bytes", u"base64"_s, {u"é"_s}, u"w6k="_s);
    exact("base64: empty", u"base64"_s, {QString()}, QString());

    exact("url_encode: reserved and non-ASCII", u"url_encode"_s, {u"a b&c=d/é?"_s},
          u"a%20b%26c%3Dd%2F%C3%A9%3F"_s);
    exact("url_encode: unreserved kept", u"url_encode"_s, {u"AZaz09-_.!~*'()"_s}, u"AZaz09-_.!~*'()"_s);
    exact("url_encode: pipe", u"url_encode"_s, {u"a|b"_s}, u"a%7Cb"_s);

    pattern("uuid: random version 4, lower case", u"uuid"_s, {},
            u"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"_s);

    exact("fail: message", u"fail"_s, {u"boom"_s}, u"ERR: boom"_s);
    exact("fail: no args", u"fail"_s, {}, u"ERR: "_s);

    exact("sleep_ms: zero", u"sleep_ms"_s, {u"0"_s}, u"slept 0 ms"_s);
    exact("sleep_ms: short", u"sleep_ms"_s, {u"15"_s}, u"slept 15 ms"_s);
    exact("sleep_ms: not a number", u"sleep_ms"_s, {u"abc"_s},
          u"ERR: sleep_ms: not a number of milliseconds: abc"_s);
    exact("sleep_ms: negative", u"sleep_ms"_s, {u"-5"_s},
          u"ERR: sleep_ms: not a number of milliseconds: -5"_s);
    exact("sleep_ms: fraction", u"sleep_ms"_s, {u"1.5"_s},
          u"ERR: sleep_ms: not a number of milliseconds: 1.5"_s);
    exact("sleep_ms: no args", u"sleep_ms"_s, {}, u"ERR: sleep_ms: not a number of milliseconds: "_s);

    pattern(
        "now: members in the article's order", u"now"_s, {},
        uR"(^\{"now":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-0[78]:00","today":"\d{4}-\d\d-\d\d",)"
        uR"("time":"\d\d:\d\d:\d\d","zone":"America/Los_Angeles","iso":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"\}$)"_s);
    pattern("now: ignores its args", u"now"_s, {u"anything"_s}, u"^\\{\"now\":"_s);
}

void TestBuiltinRegistry::builtins()
{
    QFETCH(QString, name);
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    QFETCH(Match, match);

    const QString output = call(name, args);
    if (match == Match::Exact) {
        QCOMPARE(output, expected);
    } else {
        const QRegularExpression re(expected);
        QVERIFY2(re.isValid(), qPrintable(re.errorString()));
        QVERIFY2(re.match(output).hasMatch(), qPrintable(output));
    }
}

void TestBuiltinRegistry::namesListSpecBuiltins()
{
    const BuiltinRegistry &registry = BuiltinRegistry::standard();
    const QStringList names = registry.names();
    for (const QString &name : specBuiltins) {
        QVERIFY2(names.contains(name), qPrintable(name));
        QVERIFY(registry.find(name));
        QVERIFY2(!registry.summary(name).isEmpty(), qPrintable(name));
    }
    QStringList sorted = names;
    sorted.sort();
    QCOMPARE(names, sorted);
}

void TestBuiltinRegistry::unknownNameIsAbsent()
{
    const BuiltinRegistry &registry = BuiltinRegistry::standard();
    QCOMPARE(registry.find(u"nope"_s), nullptr);
    QCOMPARE(registry.find(u"UPPER"_s), nullptr);
    QVERIFY(registry.summary(u"nope"_s).isEmpty());
}

void TestBuiltinRegistry::addReplacesAndSorts()
{
    BuiltinRegistry registry;
    registry.add(
        u"zeta"_s, [](const BuiltinCall &) { return u"z"_s; }, u"last"_s);
    registry.add(
        u"alpha"_s, [](const BuiltinCall &) { return u"a1"_s; }, u"first"_s);
    registry.add(
        u"alpha"_s, [](const BuiltinCall &) { return u"a2"_s; }, u"second"_s);

    QCOMPARE(registry.names(), QStringList({u"alpha"_s, u"zeta"_s}));
    QCOMPARE(registry.summary(u"alpha"_s), u"second"_s);
    QCOMPARE((*registry.find(u"alpha"_s))(BuiltinCall{}), u"a2"_s);
}

void TestBuiltinRegistry::nowIsOneInstantInPacificTime()
{
    const QDateTime before = QDateTime::currentDateTimeUtc();
    const QJsonObject now = QJsonDocument::fromJson(call(u"now"_s, {}).toUtf8()).object();
    const QDateTime after = QDateTime::currentDateTimeUtc();

    const QDateTime local = QDateTime::fromString(now.value(u"now"_s).toString(), Qt::ISODateWithMs);
    const QDateTime utc = QDateTime::fromString(now.value(u"iso"_s).toString(), Qt::ISODateWithMs);
    QVERIFY(local.isValid());
    QVERIFY(utc.isValid());
    QCOMPARE(local.toMSecsSinceEpoch(), utc.toMSecsSinceEpoch());
    QVERIFY(before <= utc && utc <= after);

    const QDateTime pacific = utc.toTimeZone(QTimeZone("America/Los_Angeles"));
    QCOMPARE(local.offsetFromUtc(), pacific.offsetFromUtc());
    QCOMPARE(now.value(u"today"_s).toString(), pacific.toString(u"yyyy-MM-dd"));
    QCOMPARE(now.value(u"time"_s).toString(), pacific.toString(u"HH:mm:ss"));
    QCOMPARE(now.value(u"zone"_s).toString(), u"America/Los_Angeles"_s);
}

void TestBuiltinRegistry::sleepWaits()
{
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(call(u"sleep_ms"_s, {u"60"_s}), u"slept 60 ms"_s);
    QVERIFY2(timer.elapsed() >= 60, qPrintable(QString::number(timer.elapsed())));
}

void TestBuiltinRegistry::sleepStopsWhenCancelled()
{
    auto cancelled = std::make_shared<std::atomic_bool>(false);
    std::thread canceller([cancelled] {
        QThread::msleep(50);
        cancelled->store(true);
    });
    QElapsedTimer timer;
    timer.start();
    // More than the cap, so only the cancellation can end it quickly.
    const QString output = call(u"sleep_ms"_s, {u"60000"_s}, cancelled);
    const qint64 elapsed = timer.elapsed();
    canceller.join();

    QCOMPARE(output, u"ERR: cancelled"_s);
    QVERIFY2(elapsed < 1000, qPrintable(QString::number(elapsed)));

    QCOMPARE(call(u"sleep_ms"_s, {u"5000"_s}, cancelled), u"ERR: cancelled"_s);
}

QTEST_GUILESS_MAIN(TestBuiltinRegistry)
#include "tst_builtinregistry.moc"
