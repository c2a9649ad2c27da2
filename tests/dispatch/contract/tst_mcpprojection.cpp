#include "dispatch/contract/mcpprojection.h"
#include "dispatch/store/sampledirectory.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// The MCP projection: a tools/list result for the enabled, planner-visible rows, each tool
// typed from the row's input_schema when it is an object schema, else one body string.
class TestMcpProjection : public QObject
{
    Q_OBJECT

private slots:
    void listsOnlyEnabledPlannerVisibleRows_data();
    void listsOnlyEnabledPlannerVisibleRows();
    void inputSchema_data();
    void inputSchema();
    void descriptionCarriesTheDocLines_data();
    void descriptionCarriesTheDocLines();
    void toolsListShape();
};

namespace {

Row row(const QString &key, bool enabled = true, bool visible = true)
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = QStringLiteral("echo");
    row.content = QStringLiteral("# WHAT: Echoes.\n# ARGS: $1=text\n[\"$1\"]");
    row.enabled = enabled;
    row.plannerVisible = visible;
    return row;
}

QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

const QJsonObject kBodySchema = object(R"({"type":"object","properties":{"body":{"type":"string",
    "description":"The invocation body, args split on '|': $1=text"}},"required":["body"]})");

} // namespace

void TestMcpProjection::listsOnlyEnabledPlannerVisibleRows_data()
{
    QTest::addColumn<QList<Row>>("rows");
    QTest::addColumn<QStringList>("names");

    QTest::addRow("empty directory") << QList<Row>() << QStringList();
    QTest::addRow("enabled and visible")
        << QList<Row>{row(QStringLiteral("A"))} << QStringList{QStringLiteral("A")};
    QTest::addRow("disabled") << QList<Row>{row(QStringLiteral("A"), false)} << QStringList();
    QTest::addRow("hidden from the planner")
        << QList<Row>{row(QStringLiteral("A"), true, false)} << QStringList();
    QTest::addRow("mixed, order kept")
        << QList<Row>{row(QStringLiteral("B")), row(QStringLiteral("A"), false),
                      row(QStringLiteral("C"), true, false), row(QStringLiteral("D"))}
        << QStringList{QStringLiteral("B"), QStringLiteral("D")};
}

void TestMcpProjection::listsOnlyEnabledPlannerVisibleRows()
{
    QFETCH(QList<Row>, rows);
    QFETCH(QStringList, names);

    QStringList listed;
    for (const QJsonValue &tool : McpProjection::toolsList(rows).value(QStringLiteral("tools")).toArray())
        listed.append(tool.toObject().value(QStringLiteral("name")).toString());
    QCOMPARE(listed, names);
}

void TestMcpProjection::inputSchema_data()
{
    QTest::addColumn<QString>("inputSchema");
    QTest::addColumn<QJsonObject>("expected");

    const char *typed = R"({"type":"object","properties":{"q":{"type":"string"}},"required":["q"]})";
    QTest::addRow("object schema, as written") << QString::fromUtf8(typed) << object(typed);
    QTest::addRow("properties without a type gain it")
        << QStringLiteral(R"({"properties":{"q":{"type":"string"}}})")
        << object(R"({"type":"object","properties":{"q":{"type":"string"}}})");
    QTest::addRow("no schema") << QString() << kBodySchema;
    QTest::addRow("broken JSON") << QStringLiteral("{\"type\":") << kBodySchema;
    QTest::addRow("not an object schema") << QStringLiteral(R"({"type":"string"})") << kBodySchema;
    QTest::addRow("an array") << QStringLiteral("[1,2]") << kBodySchema;
    QTest::addRow("empty object") << QStringLiteral("{}") << kBodySchema;
}

void TestMcpProjection::inputSchema()
{
    QFETCH(QString, inputSchema);
    QFETCH(QJsonObject, expected);

    Row typed = row(QStringLiteral("A"));
    typed.inputSchema = inputSchema;
    QCOMPARE(McpProjection::tool(typed).value(QStringLiteral("inputSchema")).toObject(), expected);
}

void TestMcpProjection::descriptionCarriesTheDocLines_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("description");

    // The row has no input_schema, so every description ends with the body-string rule.
    const QString rule = QStringLiteral(
        "Call with {\"body\": \"...\"}: the body is passed as is, and the row splits it into args on '|'.");
    QTest::addRow("what only") << QStringLiteral("# WHAT: Echoes.\n[\"$1\"]")
                               << QStringLiteral("Echoes. ") + rule;
    QTest::addRow("what, when and output")
        << QStringLiteral("# WHAT: Echoes.\n# WHEN_TO_USE: testing\n# OUTPUT: the text\n")
        << QStringLiteral("Echoes. Use when: testing Output: the text ") + rule;
    QTest::addRow("untagged first line")
        << QStringLiteral("# The time now.\n") << QStringLiteral("The time now. ") + rule;
    QTest::addRow("no doc lines") << QStringLiteral("[\"$1\"]") << rule;
}

void TestMcpProjection::descriptionCarriesTheDocLines()
{
    QFETCH(QString, content);
    QFETCH(QString, description);

    Row documented = row(QStringLiteral("A"));
    documented.content = content;
    QCOMPARE(McpProjection::tool(documented).value(QStringLiteral("description")).toString(), description);
}

// {"tools":[{"name","description","inputSchema","annotations"}]} and nothing else, for every sample row
// that is listed; each inputSchema an object schema.
void TestMcpProjection::toolsListShape()
{
    const StoreResult<QList<Row>> sample = SampleDirectory::rows();
    QVERIFY(sample.ok());
    const QJsonObject list = McpProjection::toolsList(sample.value());
    QCOMPARE(list.keys(), QStringList{QStringLiteral("tools")});
    const QJsonArray tools = list.value(QStringLiteral("tools")).toArray();
    QVERIFY(!tools.isEmpty());
    for (const QJsonValue &value : tools) {
        const QJsonObject tool = value.toObject();
        QCOMPARE(tool.keys(), QStringList({QStringLiteral("annotations"), QStringLiteral("description"),
                                           QStringLiteral("inputSchema"), QStringLiteral("name")}));
        QVERIFY(!tool.value(QStringLiteral("name")).toString().isEmpty());
        const QJsonObject schema = tool.value(QStringLiteral("inputSchema")).toObject();
        QCOMPARE(schema.value(QStringLiteral("type")).toString(), QStringLiteral("object"));
        QVERIFY(schema.value(QStringLiteral("properties")).isObject());
    }
}

QTEST_GUILESS_MAIN(TestMcpProjection)
#include "tst_mcpprojection.moc"
