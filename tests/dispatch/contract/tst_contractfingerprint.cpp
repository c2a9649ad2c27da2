#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/json/canonicaljson.h"
#include "dispatch/row/row.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;

// SPEC §6 contract fingerprint: documentation-only and bookkeeping edits leave it
// byte-identical, an edit to any field of the callable contract changes it. Every row
// edits one column of the article's ZZ_TEST_TEMPERATURE row.
class TestContractFingerprint : public QObject
{
    Q_OBJECT

private slots:
    void fieldsAreExactlyTheContract();
    void knownAnswer();
    void unchangedBy_data();
    void unchangedBy();
    void changedBy_data();
    void changedBy();
    void inputSchema_data();
    void inputSchema();
};

namespace {

const QString temperatureContent = u"# WHAT: Current temperature in Celsius for one latitude and longitude, "
                                   u"from the Open-Meteo public API.\n"
                                   "# WHEN_TO_USE: a capability needs the live temperature at a coordinate.\n"
                                   "# ARGS: $1=latitude | $2=longitude\n"
                                   "# EX: [ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]\n"
                                   "# OUTPUT: JSON with current.temperature_2m"_s;

// The article's POST body, plus the updated_at the engine answered with; every other
// column keeps its default (NULL text, seq NULL, sensitive 0, planner_rank 100).
Row temperatureRow()
{
    const QJsonObject post{
        {u"key"_s, u"ZZ_TEST_TEMPERATURE"_s},
        {u"type"_s, u"http"_s},
        {u"target"_s,
         u"GET https://api.open-meteo.com/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m"_s},
        {u"auth"_s, u""_s},
        {u"content"_s, temperatureContent},
        {u"category"_s, u"tools"_s},
        {u"enabled"_s, 1},
        {u"planner_visible"_s, 1},
        {u"examples"_s, u"[\"37.77|-122.42\"]"_s},
        {u"updated_at"_s, u"2026-07-26T04:36:19.832Z"_s},
    };
    QString error;
    const std::optional<Row> row = Row::fromJson(post, &error);
    if (!row)
        qFatal("article row refused: %s", qPrintable(error));
    return *row;
}

QString replaced(const QString &before, const QString &after)
{
    QString content = temperatureContent;
    if (!content.contains(before))
        qFatal("test content has no %s", qPrintable(before));
    return content.replace(before, after);
}

// One column edited to one value.
void addEditColumns()
{
    QTest::addColumn<QString>("column");
    QTest::addColumn<QVariant>("value");
}

} // namespace

void TestContractFingerprint::fieldsAreExactlyTheContract()
{
    QStringList keys = ContractFingerprint::fieldsOf(temperatureRow()).keys();
    keys.sort();
    const QStringList expected{u"allowed_categories"_s,
                               u"auth"_s,
                               u"category"_s,
                               u"description"_s,
                               u"enabled"_s,
                               u"includes"_s,
                               u"input_schema"_s,
                               u"key"_s,
                               u"payload"_s,
                               u"risk"_s,
                               u"runner"_s,
                               u"target"_s,
                               u"type"_s};
    QCOMPARE(keys, expected);
}

void TestContractFingerprint::knownAnswer()
{
    // Pinned so that any change to the field set, the canonical form or the hash fails
    // here. Derived once outside this code, with Python:
    //   s = json.dumps(fields, sort_keys=True, separators=(',', ':'), ensure_ascii=False)
    //   hashlib.sha256(s.encode()).hexdigest()
    // over the fields below (null runner, includes, allowed_categories and input_schema and
    // the empty auth all as "", the payload empty because the content is only doc lines).
    // The canonical text, split here only to fit the page, is one line:
    // clang-format off
    //   {"allowed_categories":"",
    //   "auth":"",
    //   "category":"tools",
    //   "description":"Current temperature in Celsius for one latitude and longitude, from the Open-Meteo public API.",
    //   "enabled":true,
    //   "includes":"",
    //   "input_schema":"",
    //   "key":"ZZ_TEST_TEMPERATURE",
    //   "payload":"",
    //   "risk":"low",
    //   "runner":"",
    //   "target":"GET https://api.open-meteo.com/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m",
    //   "type":"http"}
    // clang-format on
    const Row row = temperatureRow();
    QCOMPARE(
        CanonicalJson::serialize(ContractFingerprint::fieldsOf(row)),
        QByteArray("{\"allowed_categories\":\"\","
                   "\"auth\":\"\","
                   "\"category\":\"tools\","
                   "\"description\":\"Current temperature in Celsius for one latitude and longitude, from "
                   "the Open-Meteo public API.\","
                   "\"enabled\":true,"
                   "\"includes\":\"\","
                   "\"input_schema\":\"\","
                   "\"key\":\"ZZ_TEST_TEMPERATURE\","
                   "\"payload\":\"\","
                   "\"risk\":\"low\","
                   "\"runner\":\"\","
                   "\"target\":\"GET "
                   "https://api.open-meteo.com/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m\","
                   "\"type\":\"http\"}"));
    QCOMPARE(ContractFingerprint::of(row),
             u"1db07a529a83188b4ce35848d38b91a929898b3de2cbb23c5f38f538eb3c8461"_s);
}

void TestContractFingerprint::unchangedBy_data()
{
    addEditColumns();

    QTest::addRow("examples") << u"examples"_s << QVariant(u"[\"0|0\",\"51.5|-0.12\"]"_s);
    QTest::addRow("examples null") << u"examples"_s << QVariant();
    QTest::addRow("WHEN_TO_USE line") << u"content"_s
                                      << QVariant(replaced(u"# WHEN_TO_USE: a capability needs"_s,
                                                           u"# WHEN_TO_USE: a planner step needs"_s));
    QTest::addRow("ARGS line") << u"content"_s
                               << QVariant(replaced(u"# ARGS: $1=latitude | $2=longitude"_s,
                                                    u"# ARGS: $1=lat (degrees) | $2=lon (degrees)"_s));
    QTest::addRow("EX line") << u"content"_s << QVariant(replaced(u"37.77|-122.42[/"_s, u"51.5|-0.12[/"_s));
    QTest::addRow("OUTPUT line") << u"content"_s
                                 << QVariant(replaced(u"# OUTPUT: JSON with current.temperature_2m"_s,
                                                      u"# OUTPUT: JSON; read current.temperature_2m"_s));
    QTest::addRow("extra # note line")
        << u"content"_s << QVariant(temperatureContent + u"\n# note: Open-Meteo needs no key"_s);
    QTest::addRow("seq") << u"seq"_s << QVariant(qint64(42));
    QTest::addRow("planner_visible") << u"planner_visible"_s << QVariant(qint64(0));
    QTest::addRow("planner_rank") << u"planner_rank"_s << QVariant(qint64(5));
    QTest::addRow("updated_at") << u"updated_at"_s << QVariant(u"2026-07-27T09:00:00.000Z"_s);
    QTest::addRow("created_at") << u"created_at"_s << QVariant(u"2026-07-26T04:36:19.832Z"_s);
    // Null and "" are one value to the fingerprint (see contractfingerprint.h).
    QTest::addRow("auth \"\" to null") << u"auth"_s << QVariant();
    QTest::addRow("runner null to \"\"") << u"runner"_s << QVariant(u""_s);
    QTest::addRow("input_schema null to \"\"") << u"input_schema"_s << QVariant(u""_s);
}

void TestContractFingerprint::unchangedBy()
{
    QFETCH(QString, column);
    QFETCH(QVariant, value);

    const Row before = temperatureRow();
    Row after = before;
    QVERIFY(after.setValue(column, value));
    QVERIFY(after != before);
    QCOMPARE(ContractFingerprint::of(after), ContractFingerprint::of(before));
}

void TestContractFingerprint::changedBy_data()
{
    addEditColumns();

    QTest::addRow("key") << u"key"_s << QVariant(u"ZZ_TEST_TEMPERATURE_2"_s);
    QTest::addRow("type") << u"type"_s << QVariant(u"fn"_s);
    QTest::addRow("runner") << u"runner"_s << QVariant(u"http"_s);
    QTest::addRow("category") << u"category"_s << QVariant(u"weather"_s);
    QTest::addRow("target")
        << u"target"_s
        << QVariant(
               u"GET https://api.open-meteo.com/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m,wind_speed_10m"_s);
    QTest::addRow("description via WHAT")
        << u"content"_s << QVariant(replaced(u"in Celsius"_s, u"in Fahrenheit"_s));
    QTest::addRow("payload") << u"content"_s << QVariant(temperatureContent + u"\n{\"units\":\"metric\"}"_s);
    QTest::addRow("input_schema") << u"input_schema"_s
                                  << QVariant(u"{\"type\":\"object\",\"required\":[\"lat\",\"lon\"]}"_s);
    QTest::addRow("auth") << u"auth"_s << QVariant(u"bearer:OPEN_METEO_KEY"_s);
    QTest::addRow("includes") << u"includes"_s << QVariant(u"NOW"_s);
    QTest::addRow("allowed_categories") << u"allowed_categories"_s << QVariant(u"tools,weather"_s);
    QTest::addRow("sensitive to risk high") << u"sensitive"_s << QVariant(qint64(1));
    QTest::addRow("enabled") << u"enabled"_s << QVariant(qint64(0));
}

void TestContractFingerprint::changedBy()
{
    QFETCH(QString, column);
    QFETCH(QVariant, value);

    const Row before = temperatureRow();
    Row after = before;
    QVERIFY(after.setValue(column, value));
    QVERIFY(ContractFingerprint::of(after) != ContractFingerprint::of(before));
}

void TestContractFingerprint::inputSchema_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::addColumn<bool>("same");

    const QString schema =
        u"{\"type\":\"object\",\"required\":[\"lat\",\"lon\"],\"properties\":{\"lat\":{\"type\":\"number\"},\"lon\":{\"type\":\"number\"}}}"_s;

    QTest::addRow("white space reformatted")
        << schema
        << u"{\n  \"type\": \"object\",\n  \"required\": [ \"lat\", \"lon\" ],\n  \"properties\": {\n"
           "    \"lat\": { \"type\": \"number\" },\n    \"lon\": { \"type\": \"number\" }\n  }\n}\n"_s
        << true;
    QTest::addRow("keys reordered")
        << schema
        << u"{\"properties\":{\"lon\":{\"type\":\"number\"},\"lat\":{\"type\":\"number\"}},\"required\":[\"lat\",\"lon\"],\"type\":\"object\"}"_s
        << true;
    QTest::addRow("escape spelled differently")
        << u"{\"description\":\"\\u00b0C\"}"_s << u"{\"description\":\"°C\"}"_s << true;
    QTest::addRow("1.0 and 1") << u"{\"minimum\":1.0}"_s << u"{\"minimum\":1}"_s << true;
    QTest::addRow("property type changed")
        << schema
        << QString(schema).replace(u"\"lon\":{\"type\":\"number\"}"_s, u"\"lon\":{\"type\":\"string\"}"_s)
        << false;
    QTest::addRow("required order changed")
        << schema << QString(schema).replace(u"[\"lat\",\"lon\"]"_s, u"[\"lon\",\"lat\"]"_s) << false;
    QTest::addRow("not JSON: text compared as is") << u"{type: object}"_s << u"{type:  object}"_s << false;
    QTest::addRow("lax JSON is text, not parsed") << u"{\"minimum\":.5}"_s << u"{\"minimum\": .5}"_s << false;
    QTest::addRow("scalar schema") << u" true "_s << u"true"_s << true;
}

void TestContractFingerprint::inputSchema()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    QFETCH(bool, same);

    Row a = temperatureRow();
    a.inputSchema = before;
    Row b = temperatureRow();
    b.inputSchema = after;
    QCOMPARE(ContractFingerprint::of(a) == ContractFingerprint::of(b), same);
}

QTEST_GUILESS_MAIN(TestContractFingerprint)
#include "tst_contractfingerprint.moc"
