#include "dispatch/flows/flowparser.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// BLOOIO_FINISH's content exactly as the article stores it. (No raw string: moc would
// read its '#' lines as directives.)
const QString blooioFinish =
    u"# Phase C of the inbound turn: given the full agent output text in $1, extract the\n"
    u"#   LAST [REPLY], send via blooio to $2, return the send result.\n"
    u"# $1=agent output text. $2=recipient phone.\n"
    u"LAST_REPLY_OF: $1\n"
    u"> SEND_BY_CHANNEL: blooio|$2|$PREV"_s;

QString summary(const FlowCall &call)
{
    QString text = call.key;
    if (call.bodyWritten)
        text += u'[' + call.body + u']';
    if (!call.binding.isEmpty())
        text += u"=>"_s + call.binding;
    return text;
}

// A plan in one line: `KEY[body]=>NAME ; {A[x]|B[y]}=>NAME`; a key alone takes $PREV.
QString summary(const FlowPlan &plan)
{
    QStringList steps;
    for (const FlowStep &step : plan.steps) {
        QStringList calls;
        for (const FlowCall &call : step.calls)
            calls.append(summary(call));
        QString text = step.fanOut ? u'{' + calls.join(u'|') + u'}' : calls.join(u'|');
        if (!step.binding.isEmpty())
            text += u"=>"_s + step.binding;
        steps.append(text);
    }
    return steps.join(u" ; "_s);
}

const QString fuzzAlphabet = u"AB_Z:{}[]\"\\>|=  #\nab1\U0001F600\u00e9$"_s;

QString randomText(QRandomGenerator &random)
{
    QString text;
    const int length = random.bounded(40);
    for (int i = 0; i < length; ++i)
        text += fuzzAlphabet.at(random.bounded(fuzzAlphabet.size()));
    return text;
}

QString mutated(QString text, QRandomGenerator &random)
{
    const int edits = 1 + random.bounded(4);
    for (int e = 0; e < edits; ++e) {
        const qsizetype at = text.isEmpty() ? 0 : random.bounded(text.size());
        const QChar c = fuzzAlphabet.at(random.bounded(fuzzAlphabet.size()));
        switch (random.bounded(3)) {
        case 0:
            text.insert(at, c);
            break;
        case 1:
            text.remove(at, 1);
            break;
        default:
            if (!text.isEmpty())
                text[at] = c;
        }
    }
    return text;
}

} // namespace

// SPEC §4's grammar: one row per rule, the article's flow verbatim, and the errors with
// the line and column an editor shows them at.
class TestFlowParser : public QObject
{
    Q_OBJECT

private slots:
    void plans_data();
    void plans();
    void errors_data();
    void errors();
    void positionsAreThoseOfTheContent();
    void planJson();
    void neverCrashes();
};

void TestFlowParser::plans_data()
{
    QTest::addColumn<QString>("flow");
    QTest::addColumn<QString>("plan");

    QTest::addRow("BLOOIO_FINISH verbatim")
        << blooioFinish << u"LAST_REPLY_OF[$1] ; SEND_BY_CHANNEL[blooio|$2|$PREV]"_s;
    QTest::addRow("a key alone takes $PREV") << u"NOW"_s << u"NOW"_s;
    QTest::addRow("one call") << u"ECHO: hello"_s << u"ECHO[hello]"_s;
    QTest::addRow("keys alone chained") << u"NOW > ECHO_BACK"_s << u"NOW ; ECHO_BACK"_s;
    QTest::addRow("binding without body") << u"NOW => T > ECHO: $T"_s << u"NOW=>T ; ECHO[$T]"_s;
    QTest::addRow("binding after a body") << u"A: x => R > B: $R|$PREV"_s << u"A[x]=>R ; B[$R|$PREV]"_s;
    QTest::addRow("fan-out") << u"{ A: x | B: y }"_s << u"{A[x]|B[y]}"_s;
    QTest::addRow("fan-out with binding")
        << u"{A: x | B: y} => BOTH > C: $BOTH"_s << u"{A[x]|B[y]}=>BOTH ; C[$BOTH]"_s;
    QTest::addRow("fan-out branch bindings")
        << u"{A: x => AX | B: y => BY} > C: $AX $BY"_s << u"{A[x]=>AX|B[y]=>BY} ; C[$AX $BY]"_s;
    QTest::addRow("fan-out branch without body") << u"{ NOW | ECHO: y }"_s << u"{NOW|ECHO[y]}"_s;
    QTest::addRow("pipes inside branch bodies") << u"{ A: 1|2|3 | B: x|y }"_s << u"{A[1|2|3]|B[x|y]}"_s;
    QTest::addRow("pipe before non-key text") << u"{A: a | b c}"_s << u"{A[a | b c]}"_s;
    QTest::addRow("pipe before a URL scheme")
        << u"{A: a|https://x.org | B: y}"_s << u"{A[a|https://x.org]|B[y]}"_s;
    QTest::addRow("pipe before a time") << u"{A: at | 12:30}"_s << u"{A[at | 12:30]}"_s;
    QTest::addRow("pipe inside a quoted branch body")
        << uR"({A: "x | B: y" | C: z})"_s << uR"({A["x | B: y"]|C[z]})"_s;
    QTest::addRow("fan-out over several lines") << u"{ A: x\n  | B: y\n}\n> C"_s << u"{A[x]|B[y]} ; C"_s;
    QTest::addRow("> inside quoted JSON")
        << uR"(POST_IT: {"q":"a > b"} > ECHO)"_s << uR"(POST_IT[{"q":"a > b"}] ; ECHO)"_s;
    QTest::addRow("> inside braces") << u"A: {x > y} > B"_s << u"A[{x > y}] ; B"_s;
    QTest::addRow("> inside brackets") << u"A: [1 > 0] > B"_s << u"A[[1 > 0]] ; B"_s;
    QTest::addRow("escaped quote inside a string")
        << uR"(A: "say \"> now\"" > B)"_s << uR"(A["say \"> now\""] ; B)"_s;
    QTest::addRow("\\> is a literal >") << u"A: 3 \\> 2 > B"_s << u"A[3 > 2] ; B"_s;
    QTest::addRow("\\> inside a string stays") << uR"(A: "x\>y")"_s << uR"(A["x\>y"])"_s;
    QTest::addRow("=> inside a body") << u"A: x => y"_s << u"A[x => y]"_s;
    QTest::addRow("=> never splits") << u"A: a=>b > B"_s << u"A[a=>b] ; B"_s;
    QTest::addRow("=> NAME inside a string is body") << uR"(A: "v => X")"_s << uR"(A["v => X"])"_s;
    QTest::addRow("last => NAME binds") << u"A: p => Q => R"_s << u"A[p => Q]=>R"_s;
    QTest::addRow("flow over lines") << u"A: x\n> B: y\n> C"_s << u"A[x] ; B[y] ; C"_s;
    QTest::addRow("white space trimmed") << u"  A  :   x  =>  N   >   B  "_s << u"A[x]=>N ; B"_s;
    QTest::addRow("empty body") << u"A:"_s << u"A[]"_s;
    QTest::addRow("colon in body") << u"A: http://x:80/y"_s << u"A[http://x:80/y]"_s;
    QTest::addRow("JSON array body") << uR"(A: ["$1","$2"] > B)"_s << uR"(A[["$1","$2"]] ; B)"_s;
    QTest::addRow("unicode") << u"ECHO: héllo 😀 > UPPER"_s << u"ECHO[héllo 😀] ; UPPER"_s;
    QTest::addRow("CRLF line ends") << u"A: x\r\n> B\r\n"_s << u"A[x] ; B"_s;
    QTest::addRow("doc lines between steps") << u"# doc\nA: x\n  # more\n> B"_s << u"A[x] ; B"_s;
    QTest::addRow("multi-line body") << u"A: line one\nline two\n> B"_s << u"A[line one\nline two] ; B"_s;
}

void TestFlowParser::plans()
{
    QFETCH(QString, flow);
    QFETCH(QString, plan);
    const FlowParseResult result = FlowParser::parse(flow);
    QVERIFY2(result.ok(), qPrintable(result.error->describe()));
    QCOMPARE(summary(result.plan), plan);
}

void TestFlowParser::errors_data()
{
    QTest::addColumn<QString>("flow");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("reason");

    QTest::addRow("empty flow") << QString() << 1 << 1 << u"empty flow: expected KEY or KEY: body"_s;
    QTest::addRow("doc lines only") << u"# WHAT: x\n"_s << 1 << 1
                                    << u"empty flow: expected KEY or KEY: body"_s;
    QTest::addRow("trailing >") << u"A > "_s << 1 << 3 << u"nothing after '>': expected a step"_s;
    QTest::addRow("leading >") << u"> A"_s << 1 << 1 << u"empty step before '>'"_s;
    QTest::addRow("empty step between") << u"A >> B"_s << 1 << 4 << u"empty step before '>'"_s;
    QTest::addRow("unclosed brace") << u"A: {x > B"_s << 1 << 4 << u"unclosed '{'"_s;
    QTest::addRow("unclosed bracket") << u"A: [x\n> B"_s << 1 << 4 << u"unclosed '['"_s;
    QTest::addRow("stray close") << u"A: x} > B"_s << 1 << 5 << u"'}' without a matching '{'"_s;
    QTest::addRow("mismatched close")
        << u"A: {x] > B"_s << 1 << 6 << u"']' closes the '{' at line 1, column 4"_s;
    QTest::addRow("unterminated string") << u"A: \"x > B"_s << 1 << 4 << u"unterminated string"_s;
    QTest::addRow("escaped closing quote") << u"A: \"x\\\" > B"_s << 1 << 4 << u"unterminated string"_s;
    QTest::addRow("not a key") << u"a b: x"_s << 1 << 1
                               << u"'a b' is not a key: a step is KEY or KEY: body"_s;
    QTest::addRow("lower-case key") << u"A > now"_s << 1 << 5
                                    << u"'now' is not a key: a step is KEY or KEY: body"_s;
    QTest::addRow("missing key") << u"A > : x"_s << 1 << 5 << u"missing key: a step is KEY or KEY: body"_s;
    QTest::addRow("binding alone") << u"A > => X"_s << 1 << 5 << u"missing key: a step is KEY or KEY: body"_s;
    QTest::addRow("empty fan-out") << u"A > { }"_s << 1 << 5
                                   << u"empty fan-out: expected { KEY: body | KEY: body }"_s;
    QTest::addRow("text after fan-out")
        << u"{A: x} B"_s << 1 << 8 << u"only '=> NAME' may follow a fan-out's '}'"_s;
    QTest::addRow("lower-case fan-out binding")
        << u"{A: x} => both"_s << 1 << 8 << u"only '=> NAME' may follow a fan-out's '}'"_s;
    QTest::addRow("empty first branch") << u"{ | A: x }"_s << 1 << 3 << u"empty branch in the fan-out"_s;
    QTest::addRow("fan-out inside a fan-out")
        << u"{ {A: x} | B: y }"_s << 1 << 3 << u"'{A' is not a key: a branch is KEY or KEY: body"_s;
    QTest::addRow("position after doc lines")
        << u"# WHAT: x\n# ARGS: y\nA: x >"_s << 3 << 6 << u"nothing after '>': expected a step"_s;
    QTest::addRow("column after an emoji") << u"ECHO: 😀 {"_s << 1 << 10 << u"unclosed '{'"_s;
}

void TestFlowParser::errors()
{
    QFETCH(QString, flow);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, reason);
    const FlowParseResult result = FlowParser::parse(flow);
    QVERIFY(!result.ok());
    QCOMPARE(result.error->reason, reason);
    QCOMPARE(result.error->position.line, line);
    QCOMPARE(result.error->position.column, column);
    QVERIFY(result.plan.steps.isEmpty());
}

void TestFlowParser::positionsAreThoseOfTheContent()
{
    const FlowParseResult result = FlowParser::parse(blooioFinish);
    QVERIFY(result.ok());
    QCOMPARE(result.plan.steps.size(), 2);
    QCOMPARE(result.plan.steps[0].calls[0].position.line, 4);
    QCOMPARE(result.plan.steps[0].calls[0].position.column, 1);
    QCOMPARE(result.plan.steps[1].calls[0].position.line, 5);
    QCOMPARE(result.plan.steps[1].calls[0].position.column, 3);
}

void TestFlowParser::planJson()
{
    const FlowParseResult result = FlowParser::parse(u"NOW => T > {B | A: $T} => BOTH"_s);
    QVERIFY(result.ok());
    const QJsonObject expected{
        {u"steps"_s,
         QJsonArray{QJsonObject{{u"kind"_s, u"call"_s},
                                {u"key"_s, u"NOW"_s},
                                {u"body"_s, u"$PREV"_s},
                                {u"body_from_prev"_s, true},
                                {u"binding"_s, u"T"_s},
                                {u"line"_s, 1},
                                {u"column"_s, 1}},
                    QJsonObject{{u"kind"_s, u"fanout"_s},
                                {u"binding"_s, u"BOTH"_s},
                                {u"line"_s, 1},
                                {u"column"_s, 12},
                                {u"branches"_s, QJsonArray{QJsonObject{{u"key"_s, u"B"_s},
                                                                       {u"body"_s, u"$PREV"_s},
                                                                       {u"body_from_prev"_s, true},
                                                                       {u"line"_s, 1},
                                                                       {u"column"_s, 13}},
                                                           QJsonObject{{u"key"_s, u"A"_s},
                                                                       {u"body"_s, u"$T"_s},
                                                                       {u"line"_s, 1},
                                                                       {u"column"_s, 17}}}}}}}};
    QCOMPARE(result.plan.toJson(), expected);
}

// Random text over the grammar's own characters and mutations of the table's flows: the
// parser answers every one with a plan or an error inside the text, and never crashes.
void TestFlowParser::neverCrashes()
{
    QStringList seeds{blooioFinish, u"{A: x => AX | B: y} => BOTH > C: $AX"_s, uR"(P: {"q":"a > b"} > E)"_s};
    QRandomGenerator random(20260726);
    for (int i = 0; i < 30000; ++i) {
        const QString text = i % 2 ? randomText(random) : mutated(seeds[i % seeds.size()], random);
        const FlowParseResult result = FlowParser::parse(text);
        if (result.ok()) {
            QVERIFY2(!result.plan.steps.isEmpty(), qPrintable(text));
            for (const FlowStep &step : result.plan.steps)
                QVERIFY2(!step.calls.isEmpty() && !step.calls[0].key.isEmpty(), qPrintable(text));
            continue;
        }
        const TextPosition &at = result.error->position;
        QVERIFY2(at.line >= 1 && at.column >= 1 && at.offset <= text.size(), qPrintable(text));
        QVERIFY2(at.line <= text.count(u'\n') + 1, qPrintable(text));
    }
}

QTEST_GUILESS_MAIN(TestFlowParser)
#include "tst_flowparser.moc"
