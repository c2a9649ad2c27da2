#include "dispatch/row/doclines.h"

#include <QTest>

using namespace Qt::StringLiterals;

// SPEC §2 doc lines: stripDocs gives the payload, parse gives the tagged documentation
// the linter, the contract document and the fingerprint read. The article's rows are
// quoted verbatim (their content, without the article's column indentation).
class TestDocLines : public QObject
{
    Q_OBJECT

private slots:
    void stripDocs_data();
    void stripDocs();
    void parse_data();
    void parse();
    void parseExample_data();
    void parseExample();
    void isDocLine_data();
    void isDocLine();
};

namespace {

const QString nowContent =
    u"# Return the current time from the build clock in Pacific time (America/Los_Angeles).\n"
    "# WHEN_TO_USE: any object or model that needs the current date or time.\n"
    "# ARGS: none\n"
    "# EX: [NOW][/NOW]\n"
    "# OUTPUT: { now, today, time, zone, iso } — Pacific-offset ISO; today is the Pacific "
    "calendar date."_s;

const QString grokModelsContent = u"# WHAT: List every model on the xAI API. No args\n"
                                  "# WHEN_TO_USE: you need to grok models\n"
                                  "# ARGS: see content\n"
                                  "# EX: [GROK_MODELS][/GROK_MODELS]\n"
                                  "# List every model on the xAI API. No args."_s;

const QString dirPatchContent = u"# ARGS: key | json_body\n"
                                "# EX: [DIR_PATCH]ROUTER|{\"content\":\"new prompt text\"}[/DIR_PATCH]\n"
                                "$2+"_s;

const QString blooioFinishContent =
    u"# Phase C of the inbound turn: given the full agent output text in $1, extract the\n"
    "#   LAST [REPLY], send via blooio to $2, return the send result.\n"
    "# $1=agent output text. $2=recipient phone.\n"
    "LAST_REPLY_OF: $1\n"
    "> SEND_BY_CHANNEL: blooio|$2|$PREV"_s;

// The "content" member of the article's POST, JSON escapes resolved.
const QString temperatureContent = u"# WHAT: Current temperature in Celsius for one latitude and longitude, "
                                   u"from the Open-Meteo public API.\n"
                                   "# WHEN_TO_USE: a capability needs the live temperature at a coordinate.\n"
                                   "# ARGS: $1=latitude | $2=longitude\n"
                                   "# EX: [ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]\n"
                                   "# OUTPUT: JSON with current.temperature_2m"_s;

const QString promptLabContent = u"You are a friendly peptide concierge (LAB TEST v1). One warm sentence,\n"
                                 "then end with [REPLY]your text[/REPLY]."_s;

// "Tag@line" per doc line, in order.
QString outline(const QList<DocLine> &lines)
{
    static const char *const tags[] = {"None", "What", "WhenToUse", "Args", "Example", "Output"};
    QStringList parts;
    for (const DocLine &line : lines)
        parts.append(QLatin1String(tags[int(line.tag)]) + u'@' + QString::number(line.line));
    return parts.join(u' ');
}

} // namespace

void TestDocLines::stripDocs_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("payload");

    QTest::addRow("NOW: no payload") << nowContent << QString();
    QTest::addRow("GROK_MODELS: no payload") << grokModelsContent << QString();
    QTest::addRow("DIR_PATCH") << dirPatchContent << u"$2+"_s;
    QTest::addRow("BLOOIO_FINISH") << blooioFinishContent
                                   << u"LAST_REPLY_OF: $1\n> SEND_BY_CHANNEL: blooio|$2|$PREV"_s;
    QTest::addRow("ZZ_TEST_TEMPERATURE") << temperatureContent << QString();
    QTest::addRow("PROMPT_LAB_AGENT: no doc lines") << promptLabContent << promptLabContent;
    QTest::addRow("null") << QString() << QString();
    QTest::addRow("only blank lines") << u"\n  \n\t\n"_s << QString();
    QTest::addRow("only doc lines, trailing newline") << u"# WHAT: x\n# ARGS: none\n"_s << QString();
    QTest::addRow("indented #") << u"  # WHAT: x\n\t# ARGS: y\n[\"$1\"]"_s << u"[\"$1\"]"_s;
    QTest::addRow("# after text is payload")
        << u"# WHAT: x\necho $1 # not a doc line"_s << u"echo $1 # not a doc line"_s;
    QTest::addRow("doc lines between payload lines")
        << u"a\n# WHAT: x\nb\n  # EX: [K][/K]\nc"_s << u"a\nb\nc"_s;
    QTest::addRow("leading and trailing blank lines dropped")
        << u"\n# WHAT: x\n\n  \n{\n  \"a\": 1\n}\n\n \n"_s << u"{\n  \"a\": 1\n}"_s;
    QTest::addRow("interior blank lines kept") << u"# WHAT: x\nfirst\n\n\nsecond"_s << u"first\n\n\nsecond"_s;
    QTest::addRow("indentation and trailing blanks kept")
        << u"# WHAT: x\n  first  \n\tsecond\t"_s << u"  first  \n\tsecond\t"_s;
    QTest::addRow("CRLF: terminators kept inside")
        << u"# WHAT: x\r\n# ARGS: y\r\n{\r\n\"a\":1\r\n}\r\n"_s << u"{\r\n\"a\":1\r\n}"_s;
    QTest::addRow("CRLF: one payload line") << u"# WHAT: x\r\n$2+\r\n"_s << u"$2+"_s;
    QTest::addRow("CRLF: blank lines with CR dropped") << u"\r\n# WHAT: x\r\n\r\nbody\r\n\r\n"_s << u"body"_s;
    QTest::addRow("mixed line ends") << u"a\r\n# x\nb\nc\r\n"_s << u"a\r\nb\nc"_s;
    QTest::addRow("lone CR is no line break") << u"# WHAT: x\ra\nb"_s << u"b"_s;
    QTest::addRow("bare #") << u"#\nx\n#"_s << u"x"_s;
    QTest::addRow("## and #!") << u"## Heading\n#!/bin/sh\nrun"_s << u"run"_s;
}

void TestDocLines::stripDocs()
{
    QFETCH(QString, content);
    QFETCH(QString, payload);
    QCOMPARE(DocLines::stripDocs(content), payload);
    QCOMPARE(DocLines::parse(content).payload(), payload);
}

void TestDocLines::parse_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("outline");
    QTest::addColumn<QString>("description");
    QTest::addColumn<int>("descriptionLine"); // 0: none
    QTest::addColumn<QString>("whenToUse");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QStringList>("examples");
    QTest::addColumn<QString>("output");
    QTest::addColumn<QStringList>("otherLines");

    QTest::addRow("NOW: untagged first line is the description")
        << nowContent << u"None@1 WhenToUse@2 Args@3 Example@4 Output@5"_s
        << u"Return the current time from the build clock in Pacific time (America/Los_Angeles)."_s << 1
        << u"any object or model that needs the current date or time."_s << u"none"_s
        << QStringList{u"[NOW][/NOW]"_s}
        << u"{ now, today, time, zone, iso } — Pacific-offset ISO; today is the Pacific calendar date."_s
        << QStringList();
    QTest::addRow("GROK_MODELS: WHAT wins, last line is other")
        << grokModelsContent << u"What@1 WhenToUse@2 Args@3 Example@4 None@5"_s
        << u"List every model on the xAI API. No args"_s << 1 << u"you need to grok models"_s
        << u"see content"_s << QStringList{u"[GROK_MODELS][/GROK_MODELS]"_s} << QString()
        << QStringList{u"List every model on the xAI API. No args."_s};
    QTest::addRow("DIR_PATCH: tagged first line, no description")
        << dirPatchContent << u"Args@1 Example@2"_s << QString() << 0 << QString() << u"key | json_body"_s
        << QStringList{u"[DIR_PATCH]ROUTER|{\"content\":\"new prompt text\"}[/DIR_PATCH]"_s} << QString()
        << QStringList();
    QTest::addRow("BLOOIO_FINISH: continuation joins the description")
        << blooioFinishContent << u"None@1 None@3"_s
        << u"Phase C of the inbound turn: given the full agent output text in $1, extract the LAST [REPLY], "
           "send via blooio to $2, return the send result."_s
        << 1 << QString() << QString() << QStringList() << QString()
        << QStringList{u"$1=agent output text. $2=recipient phone."_s};
    QTest::addRow("ZZ_TEST_TEMPERATURE")
        << temperatureContent << u"What@1 WhenToUse@2 Args@3 Example@4 Output@5"_s
        << u"Current temperature in Celsius for one latitude and longitude, from the Open-Meteo public API."_s
        << 1 << u"a capability needs the live temperature at a coordinate."_s
        << u"$1=latitude | $2=longitude"_s
        << QStringList{u"[ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]"_s}
        << u"JSON with current.temperature_2m"_s << QStringList();
    QTest::addRow("no doc lines") << promptLabContent << QString() << QString() << 0 << QString() << QString()
                                  << QStringList() << QString() << QStringList();
    QTest::addRow("doc lines interleaved with payload")
        << u"payload\n  # WHAT: w\nmore\n\t#EX:[K]a[/K]\n#   EX: [K]b[/K]"_s
        << u"What@2 Example@4 Example@5"_s << u"w"_s << 2 << QString() << QString()
        << QStringList{u"[K]a[/K]"_s, u"[K]b[/K]"_s} << QString() << QStringList();
    QTest::addRow("tags are case-sensitive and exact")
        << u"# what: lower\n# WHAT : spaced\n# EXAMPLE: long\n# ARGS:x"_s << u"None@1 None@2 None@3 Args@4"_s
        << u"what: lower"_s << 1 << QString() << u"x"_s << QStringList() << QString()
        << QStringList{u"WHAT : spaced"_s, u"EXAMPLE: long"_s};
    QTest::addRow("first WHAT of two")
        << u"# WHAT: one\n# WHAT: two"_s << u"What@1 What@2"_s << u"one"_s << 1 << QString() << QString()
        << QStringList() << QString() << QStringList();
    QTest::addRow("WHAT beats an untagged first line")
        << u"# Untagged first.\n# WHAT: tagged"_s << u"None@1 What@2"_s << u"tagged"_s << 2 << QString()
        << QString() << QStringList() << QString() << QStringList{u"Untagged first."_s};
    QTest::addRow("bare # before the description")
        << u"#\n# Described here.\n# ARGS: none"_s << u"None@1 None@2 Args@3"_s << u"Described here."_s << 2
        << QString() << u"none"_s << QStringList() << QString() << QStringList{QString()};
    QTest::addRow("continuation of a tagged line")
        << u"# ARGS: $1=text\n#   | $2=phone\n#\t\tand more"_s << u"Args@1"_s << QString() << 0 << QString()
        << u"$1=text | $2=phone and more"_s << QStringList() << QString() << QStringList();
    QTest::addRow("one blank is no continuation")
        << u"# WHAT: w\n# not continued"_s << u"What@1 None@2"_s << u"w"_s << 1 << QString() << QString()
        << QStringList() << QString() << QStringList{u"not continued"_s};
    QTest::addRow("tag after two blanks is a tag")
        << u"# WHAT: w\n#   OUTPUT: o"_s << u"What@1 Output@2"_s << u"w"_s << 1 << QString() << QString()
        << QStringList() << u"o"_s << QStringList();
    QTest::addRow("blank line ends a continuation run")
        << u"# WHAT: w\n\n#   apart"_s << u"What@1 None@3"_s << u"w"_s << 1 << QString() << QString()
        << QStringList() << QString() << QStringList{u"apart"_s};
    QTest::addRow("payload line ends a continuation run")
        << u"# WHAT: w\nbody\n#   apart"_s << u"What@1 None@3"_s << u"w"_s << 1 << QString() << QString()
        << QStringList() << QString() << QStringList{u"apart"_s};
    QTest::addRow("indented first line is not a continuation")
        << u"#   Indented description."_s << u"None@1"_s << u"Indented description."_s << 1 << QString()
        << QString() << QStringList() << QString() << QStringList();
    QTest::addRow("CRLF") << u"# WHAT: w \r\n# EX: [K]a|b[/K]\r\n#   tail\r\n[\"$1\"]\r\n"_s
                          << u"What@1 Example@2"_s << u"w"_s << 1 << QString() << QString()
                          << QStringList{u"[K]a|b[/K] tail"_s} << QString() << QStringList();
    QTest::addRow("# after payload text is no doc line")
        << u"# WHAT: w\necho 1 # OUTPUT: not a tag"_s << u"What@1"_s << u"w"_s << 1 << QString() << QString()
        << QStringList() << QString() << QStringList();
    QTest::addRow("empty tag text") << u"# WHAT:\n# OUTPUT:   "_s << u"What@1 Output@2"_s << QString() << 1
                                    << QString() << QString() << QStringList() << QString() << QStringList();
}

void TestDocLines::parse()
{
    QFETCH(QString, content);
    QFETCH(QString, outline);
    QFETCH(QString, description);
    QFETCH(int, descriptionLine);
    QFETCH(QString, whenToUse);
    QFETCH(QString, args);
    QFETCH(QStringList, examples);
    QFETCH(QString, output);
    QFETCH(QStringList, otherLines);

    const DocLines docs = DocLines::parse(content);
    QCOMPARE(::outline(docs.lines()), outline);
    QCOMPARE(docs.description(), description);
    const std::optional<DocLine> described = docs.descriptionLine();
    QCOMPARE(described ? described->line : 0, descriptionLine);
    QCOMPARE(docs.whenToUse(), whenToUse);
    QCOMPARE(docs.args(), args);
    QCOMPARE(docs.examples(), examples);
    QCOMPARE(docs.output(), output);
    QStringList others;
    for (const DocLine &line : docs.otherLines())
        others.append(line.text);
    QCOMPARE(others, otherLines);
    QCOMPARE(docs.tagged(DocLine::Tag::Example).size(), examples.size());
    QCOMPARE(docs.payload(), DocLines::stripDocs(content));
}

void TestDocLines::parseExample_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("body");

    QTest::addRow("NOW: empty body") << u"[NOW][/NOW]"_s << true << u"NOW"_s << QString();
    QTest::addRow("DIR_PATCH") << u"[DIR_PATCH]ROUTER|{\"content\":\"new prompt text\"}[/DIR_PATCH]"_s << true
                               << u"DIR_PATCH"_s << u"ROUTER|{\"content\":\"new prompt text\"}"_s;
    QTest::addRow("ZZ_TEST_TEMPERATURE") << u"[ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]"_s
                                         << true << u"ZZ_TEST_TEMPERATURE"_s << u"37.77|-122.42"_s;
    QTest::addRow("body holds [REPLY] pairs")
        << u"[LAST_REPLY_OF]a [REPLY]x[/REPLY] b [REPLY]y[/REPLY][/LAST_REPLY_OF]"_s << true
        << u"LAST_REPLY_OF"_s << u"a [REPLY]x[/REPLY] b [REPLY]y[/REPLY]"_s;
    QTest::addRow("body holds the same key") << u"[K]a[K]b[/K][/K]"_s << true << u"K"_s << u"a[K]b[/K]"_s;
    QTest::addRow("surrounding blanks") << u"  [K] x [/K]  "_s << true << u"K"_s << u" x "_s;
    QTest::addRow("body with brackets") << u"[K]][[/[/K]"_s << true << u"K"_s << u"][[/"_s;
    QTest::addRow("no closing tag") << u"[K]body"_s << false << QString() << QString();
    QTest::addRow("other key closes") << u"[K]body[/J]"_s << false << QString() << QString();
    QTest::addRow("text after the closing tag") << u"[K]body[/K] then"_s << false << QString() << QString();
    QTest::addRow("text before the opening tag") << u"call [K]body[/K]"_s << false << QString() << QString();
    QTest::addRow("empty key") << u"[][/]"_s << false << QString() << QString();
    QTest::addRow("opening tag only") << u"[K]"_s << false << QString() << QString();
    QTest::addRow("overlapping tags") << u"[/K]"_s << false << QString() << QString();
    QTest::addRow("key with a blank") << u"[A B]x[/A B]"_s << false << QString() << QString();
    QTest::addRow("empty") << QString() << false << QString() << QString();
}

void TestDocLines::parseExample()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(QString, key);
    QFETCH(QString, body);

    const std::optional<DocExample> example = DocLines::parseExample(text);
    QCOMPARE(example.has_value(), valid);
    if (example) {
        QCOMPARE(example->key, key);
        QCOMPARE(example->body, body);
    }
}

void TestDocLines::isDocLine_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<bool>("doc");

    QTest::addRow("tag") << u"# WHAT: x"_s << true;
    QTest::addRow("bare #") << u"#"_s << true;
    QTest::addRow("indented") << u" \t# x"_s << true;
    QTest::addRow("with CR") << u"# x\r"_s << true;
    QTest::addRow("text first") << u"x # y"_s << false;
    QTest::addRow("empty") << QString() << false;
    QTest::addRow("blank") << u"   "_s << false;
}

void TestDocLines::isDocLine()
{
    QFETCH(QString, line);
    QFETCH(bool, doc);
    QCOMPARE(DocLines::isDocLine(line), doc);
}

QTEST_GUILESS_MAIN(TestDocLines)
#include "tst_doclines.moc"
