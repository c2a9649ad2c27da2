#include "dispatch/row/argumentspec.h"
#include "dispatch/row/row.h"

#include <QTest>

using namespace Qt::StringLiterals;

// ArgumentSpec: what the shape preview's argument form shows for a row. The ARGS lines
// are the sample directory's (resources/sample/directory.json) plus edge cases.
class TestArgumentSpec final : public QObject
{
    Q_OBJECT

private:
    static Row row(const QString &type, const QString &target, const QString &content,
                   const QString &schema = {})
    {
        Row r;
        r.key = QStringLiteral("K");
        r.type = type;
        r.target = target;
        r.content = content;
        r.inputSchema = schema;
        return r;
    }

    // "1:latitude,2+:text" — index, '+' when it takes the rest, name.
    static QString summary(const ArgumentSpec &spec)
    {
        QStringList parts;
        for (const ArgumentSlot &slot : spec.arguments())
            parts << QStringLiteral("%1%2:%3")
                         .arg(slot.index)
                         .arg(slot.takesRest ? QStringLiteral("+") : QString(), slot.name);
        return parts.join(u',');
    }

private slots:
    void argsLine_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<bool>("usable");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("lastTakesRest");

        QTest::addRow("two named") << u"$1=latitude | $2=longitude"_s << true << u"1:latitude,2:longitude"_s
                                   << false;
        QTest::addRow("rest only") << u"$1+=agent output text"_s << true << u"1+:agent output text"_s << true;
        QTest::addRow("three, rest last") << u"$1=channel | $2=recipient | $3+=text"_s << true
                                          << u"1:channel,2:recipient,3+:text"_s << true;
        QTest::addRow("positional names") << u"key | json_body"_s << true << u"1:key,2:json_body"_s << false;
        QTest::addRow("none") << u"none"_s << true << u""_s << false;
        QTest::addRow("None.") << u"None."_s << true << u""_s << false;
        QTest::addRow("free text") << u"see content"_s << false << u""_s << false;
        QTest::addRow("empty") << u""_s << false << u""_s << false;
        QTest::addRow("pipe inside parentheses")
            << u"$1=key | $2+=json_body (the fields to change; may contain |)"_s << true
            << u"1:key,2+:json_body"_s << true;
        QTest::addRow("note in parentheses")
            << u"$1=date (YYYY-MM-DD, 1995-06-16 or later)"_s << true << u"1:date"_s << false;
        QTest::addRow("whole body note") << u"$1=customer message (the whole body is the user message)"_s
                                         << true << u"1:customer message"_s << false;
        QTest::addRow("four, rest last")
            << u"$1=owner | $2=repository | $3=title | $4+=body (Markdown; may contain |)"_s << true
            << u"1:owner,2:repository,3:title,4+:body"_s << true;
        QTest::addRow("gap filled") << u"$2=second"_s << true << u"1:$1,2:second"_s << false;
        QTest::addRow("out of order") << u"$2=b | $1=a"_s << true << u"1:a,2:b"_s << false;
        QTest::addRow("repeat kept once") << u"$1=a | $1=b"_s << true << u"1:a"_s << false;
        QTest::addRow("rest not last is plain") << u"$1+=a | $2=b"_s << true << u"1:a,2:b"_s << false;
        QTest::addRow("unnamed") << u"$1"_s << true << u"1:$1"_s << false;
        QTest::addRow("mixed forms are free text") << u"$1=a | then something"_s << false << u""_s << false;
        QTest::addRow("$0 is not an arg") << u"$0=nothing"_s << false << u""_s << false;
    }
    void argsLine()
    {
        QFETCH(QString, args);
        QFETCH(bool, usable);
        QFETCH(QString, expected);
        QFETCH(bool, lastTakesRest);
        bool wasUsable = !usable;
        const ArgumentSpec spec = ArgumentSpec::fromArgsLine(args, &wasUsable);
        QCOMPARE(wasUsable, usable);
        QCOMPARE(summary(spec), expected);
        QCOMPARE(spec.lastTakesRest(), lastTakesRest);
    }

    void descriptionFromParentheses()
    {
        const ArgumentSpec spec = ArgumentSpec::fromArgsLine(QStringLiteral("$1=date (YYYY-MM-DD)"));
        QCOMPARE(spec.arguments().value(0).description, QStringLiteral("YYYY-MM-DD"));
    }

    void fromRow_data()
    {
        QTest::addColumn<Row>("row");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("source");

        const QString schema =
            QStringLiteral(R"({"type":"object","properties":{"q":{"type":"string","description":"place"},)"
                           R"("days":{"type":"integer"}},"required":["q"]})");
        QTest::addRow("ARGS wins") << row(QStringLiteral("http"), QStringLiteral("GET http://x/$1?b=$2"),
                                          QStringLiteral("# WHAT: w\n# ARGS: $1=a | $2=b"), schema)
                                   << u"1:a,2:b"_s << int(ArgumentSpec::Source::ArgsLine);
        QTest::addRow("ARGS none wins over placeholders")
            << row(QStringLiteral("fn"), QStringLiteral("now"), QStringLiteral("# ARGS: none")) << u""_s
            << int(ArgumentSpec::Source::ArgsLine);
        QTest::addRow("schema in written order, not sorted")
            << row(QStringLiteral("http"), QStringLiteral("GET http://x/$1"),
                   QStringLiteral("# ARGS: see below"), schema)
            << u"1:q,2:days"_s << int(ArgumentSpec::Source::InputSchema);
        QTest::addRow("placeholders in target and payload")
            << row(QStringLiteral("http"), QStringLiteral("POST http://x/$1"),
                   QStringLiteral("{\"t\":\"$3+\"}"))
            << u"1:$1,2:$2,3+:$3"_s << int(ArgumentSpec::Source::Placeholders);
        QTest::addRow("fn without payload takes $1")
            << row(QStringLiteral("fn"), QStringLiteral("echo"), QString()) << u"1:$1"_s
            << int(ArgumentSpec::Source::Placeholders);
        QTest::addRow("agent target is no template")
            << row(QStringLiteral("agent"), QStringLiteral("grok-$1"), QStringLiteral("You are terse."))
            << u""_s << int(ArgumentSpec::Source::None);
        QTest::addRow("broken schema falls through")
            << row(QStringLiteral("http"), QStringLiteral("GET http://x/$2"), QString(),
                   QStringLiteral("{nope"))
            << u"1:$1,2:$2"_s << int(ArgumentSpec::Source::Placeholders);
    }
    void fromRow()
    {
        QFETCH(Row, row);
        QFETCH(QString, expected);
        QFETCH(int, source);
        const ArgumentSpec spec = ArgumentSpec::fromRow(row);
        QCOMPARE(summary(spec), expected);
        QCOMPARE(int(spec.source()), source);
    }

    void schemaRequiredAndDescription()
    {
        const ArgumentSpec spec = ArgumentSpec::fromInputSchema(
            QStringLiteral(R"({"properties":{"z":{"description":"last letter"},"a":{}},"required":["z"]})"));
        QCOMPARE(spec.count(), 2);
        QCOMPARE(spec.arguments()[0].name, QStringLiteral("z"));
        QVERIFY(spec.arguments()[0].required);
        QCOMPARE(spec.arguments()[0].description, QStringLiteral("last letter"));
        QVERIFY(!spec.arguments()[1].required);
    }

    void body_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QStringList>("values");
        QTest::addColumn<QList<int>>("misplaced");

        QTest::addRow("two") << u"$1=a | $2=b"_s << u"37.77|-122.42"_s
                             << QStringList{u"37.77"_s, u"-122.42"_s} << QList<int>{};
        QTest::addRow("fewer pieces padded")
            << u"$1=a | $2=b"_s << u"x"_s << QStringList{u"x"_s, u""_s} << QList<int>{};
        QTest::addRow("rest keeps pipes") << u"$1=key | $2+=json"_s << u"ROUTER|{\"c\":\"a|b\"}"_s
                                          << QStringList{u"ROUTER"_s, u"{\"c\":\"a|b\"}"_s} << QList<int>{};
        QTest::addRow("extra pieces stay in last, flagged")
            << u"$1=a | $2=b"_s << u"1|2|3"_s << QStringList{u"1"_s, u"2|3"_s} << QList<int>{1};
        QTest::addRow("no args keeps the body")
            << u"none"_s << u"a|b"_s << QStringList{u"a|b"_s} << QList<int>{};
        QTest::addRow("empty body") << u"$1=a"_s << u""_s << QStringList{u""_s} << QList<int>{};
    }
    void body()
    {
        QFETCH(QString, args);
        QFETCH(QString, body);
        QFETCH(QStringList, values);
        QFETCH(QList<int>, misplaced);
        const ArgumentSpec spec = ArgumentSpec::fromArgsLine(args);
        QCOMPARE(spec.splitBody(body), values);
        QCOMPARE(spec.joinBody(values), body);
        if (spec.count() > 0)
            QCOMPARE(spec.misplacedPipes(values), misplaced);
    }

    void trailingEmptyValuesLeftOff()
    {
        const ArgumentSpec spec = ArgumentSpec::fromArgsLine(QStringLiteral("$1=a | $2=b | $3=c"));
        QCOMPARE(spec.joinBody({QStringLiteral("x"), QString(), QString()}), QStringLiteral("x"));
        QCOMPARE(spec.joinBody({QString(), QStringLiteral("y"), QString()}), QStringLiteral("|y"));
        QCOMPARE(spec.joinBody({QString(), QString(), QString()}), QString());
    }

    void emptyArguments_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QStringList>("empty");

        QTest::addRow("all given") << u"$1=a | $2=b"_s << u"1|2"_s << QStringList{};
        QTest::addRow("empty body names all") << u"$1=a | $2=b"_s << u""_s << QStringList{u"a"_s, u"b"_s};
        QTest::addRow("missing tail") << u"$1=a | $2=b"_s << u"1"_s << QStringList{u"b"_s};
        QTest::addRow("empty middle") << u"$1=a | $2=b | $3=c"_s << u"1||3"_s << QStringList{u"b"_s};
        QTest::addRow("blank counts as empty") << u"$1=a | $2=b"_s << u" |2"_s << QStringList{u"a"_s};
        QTest::addRow("rest holding pipes is given") << u"$1=key | $2+=json"_s << u"K|a|b"_s << QStringList{};
        QTest::addRow("no declared args") << u"none"_s << u""_s << QStringList{};
    }
    void emptyArguments()
    {
        QFETCH(QString, args);
        QFETCH(QString, body);
        QFETCH(QStringList, empty);
        QStringList names;
        for (const ArgumentSlot &slot : ArgumentSpec::fromArgsLine(args).emptyIn(body))
            names << slot.name;
        QCOMPARE(names, empty);
    }

    void pipeInPlainArgIsFlagged()
    {
        const ArgumentSpec spec = ArgumentSpec::fromArgsLine(QStringLiteral("$1=a | $2=b"));
        QCOMPARE(spec.misplacedPipes({QStringLiteral("x|y"), QStringLiteral("z")}), QList<int>{0});
    }
};

QTEST_GUILESS_MAIN(TestArgumentSpec)
#include "tst_argumentspec.moc"
