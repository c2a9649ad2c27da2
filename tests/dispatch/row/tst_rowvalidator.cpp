#include "dispatch/row/row.h"
#include "dispatch/row/rowvalidator.h"

#include <QJsonObject>
#include <QTest>

// The structural checks every write passes: key form (H001's pattern), type, and the two
// JSON-valued fields. Each finding names its field; checkFields judges only what it is told.
class TestRowValidator : public QObject
{
    Q_OBJECT

private slots:
    void keys_data();
    void keys();
    void types_data();
    void types();
    void inputSchema_data();
    void inputSchema();
    void examples_data();
    void examples();
    void aValidRowHasNoProblems();
    void checkReportsEveryFieldInOrder();
    void checkFieldsJudgesOnlyNamedFields_data();
    void checkFieldsJudgesOnlyNamedFields();
    void describeJoinsMessages();
    void problemsNameTheirRule_data();
    void problemsNameTheirRule();
    void timestamps_data();
    void timestamps();
};

namespace {

Row validRow()
{
    Row row;
    row.key = QStringLiteral("NOW");
    row.type = QStringLiteral("fn");
    row.target = QStringLiteral("now");
    row.content = QStringLiteral("# the current time\n[]");
    return row;
}

QStringList fieldsOf(const QList<FieldProblem> &problems)
{
    QStringList fields;
    for (const FieldProblem &problem : problems)
        fields.append(problem.field);
    return fields;
}

} // namespace

void TestRowValidator::keys_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("valid");

    QTest::addRow("NOW") << QStringLiteral("NOW") << true;
    QTest::addRow("trailing line feed") << QStringLiteral("NOW\n") << false;
    QTest::addRow("A1 (shortest)") << QStringLiteral("A1") << true;
    QTest::addRow("underscores") << QStringLiteral("ZZ_TEST_TEMPERATURE") << true;
    QTest::addRow("trailing underscore") << QStringLiteral("A_") << true;
    QTest::addRow("digits after the first") << QStringLiteral("X2024") << true;
    QTest::addRow("64 characters (longest)") << QStringLiteral("K") + QString(63, u'Z') << true;

    QTest::addRow("empty") << QString() << false;
    QTest::addRow("empty string") << QString(QLatin1String("")) << false;
    QTest::addRow("one letter") << QStringLiteral("A") << false;
    QTest::addRow("lowercase") << QStringLiteral("now") << false;
    QTest::addRow("one lowercase letter") << QStringLiteral("NoW") << false;
    QTest::addRow("leading digit") << QStringLiteral("1AB") << false;
    QTest::addRow("leading underscore") << QStringLiteral("_AB") << false;
    QTest::addRow("dash") << QStringLiteral("A-B") << false;
    QTest::addRow("space") << QStringLiteral("A B") << false;
    QTest::addRow("leading space") << QStringLiteral(" AB") << false;
    QTest::addRow("dot") << QStringLiteral("A.B") << false;
    QTest::addRow("65 characters") << QStringLiteral("K") + QString(64, u'Z') << false;
    QTest::addRow("unicode letter first") << QStringLiteral("ÄB") << false;
    QTest::addRow("unicode letter later") << QStringLiteral("AÄ") << false;
    QTest::addRow("fullwidth capitals") << QStringLiteral("ＡＢ") << false;
    QTest::addRow("unicode digit") << QStringLiteral("A٣") << false;
}

void TestRowValidator::keys()
{
    QFETCH(QString, key);
    QFETCH(bool, valid);

    QCOMPARE(RowValidator::isValidKey(key), valid);

    Row row = validRow();
    row.key = key;
    const QList<FieldProblem> problems = RowValidator::check(row);
    QCOMPARE(fieldsOf(problems).contains(QStringLiteral("key")), !valid);
    if (!valid) {
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().message.contains(QLatin1Char('\'') + key + QLatin1Char('\'')),
                 qPrintable(problems.first().message));
    }
}

void TestRowValidator::types_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<bool>("valid");

    QTest::addRow("fn") << QStringLiteral("fn") << true;
    QTest::addRow("http") << QStringLiteral("http") << true;
    QTest::addRow("agent") << QStringLiteral("agent") << true;
    QTest::addRow("flow") << QStringLiteral("flow") << true;
    QTest::addRow("null") << QString() << false;
    QTest::addRow("empty") << QString(QLatin1String("")) << false;
    QTest::addRow("uppercase") << QStringLiteral("FN") << false;
    QTest::addRow("padded") << QStringLiteral(" fn") << false;
    QTest::addRow("unknown") << QStringLiteral("sql") << false;
    QTest::addRow("two types") << QStringLiteral("fn,http") << false;
}

void TestRowValidator::types()
{
    QFETCH(QString, type);
    QFETCH(bool, valid);

    Row row = validRow();
    row.type = type;
    const QList<FieldProblem> problems = RowValidator::check(row);
    QCOMPARE(fieldsOf(problems), valid ? QStringList() : QStringList{QStringLiteral("type")});
    if (!valid)
        QVERIFY2(problems.first().message.contains(QStringLiteral("fn, http, agent, flow")),
                 qPrintable(problems.first().message));
}

void TestRowValidator::inputSchema_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("messagePart"); // when refused

    QTest::addRow("null") << QString() << true << QString();
    QTest::addRow("empty") << QString(QLatin1String("")) << true << QString();
    QTest::addRow("blank") << QStringLiteral("  \n\t") << true << QString();
    QTest::addRow("empty object") << QStringLiteral("{}") << true << QString();
    QTest::addRow("schema object") << QStringLiteral(
        "{\n  \"type\": \"object\",\n  \"properties\": {\"city\": "
        "{\"type\": \"string\"}}\n}")
                                   << true << QString();
    QTest::addRow("array") << QStringLiteral("[]") << false << QStringLiteral("must be a JSON Schema object");
    QTest::addRow("array of objects") << QStringLiteral("[{\"type\":\"string\"}]") << false
                                      << QStringLiteral("must be a JSON Schema object");
    QTest::addRow("broken on line 1") << QStringLiteral("{\"type\": }") << false
                                      << QStringLiteral("input_schema is not JSON: line 1, column ");
    QTest::addRow("broken on line 3")
        << QStringLiteral("{\n  \"type\": \"object\",\n  \"required\": [\"a\",]\n}") << false
        << QStringLiteral("input_schema is not JSON: line 3, column ");
    QTest::addRow("unterminated") << QStringLiteral("{\"type\": \"obj") << false
                                  << QStringLiteral("input_schema is not JSON: line 1, column ");
    QTest::addRow("trailing garbage")
        << QStringLiteral("{} x") << false << QStringLiteral("input_schema is not JSON: line 1, column ");
}

void TestRowValidator::inputSchema()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(QString, messagePart);

    Row row = validRow();
    row.inputSchema = text;
    const QList<FieldProblem> problems = RowValidator::check(row);
    QCOMPARE(fieldsOf(problems), valid ? QStringList() : QStringList{QStringLiteral("input_schema")});
    if (!valid)
        QVERIFY2(problems.first().message.contains(messagePart), qPrintable(problems.first().message));
}

void TestRowValidator::examples_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("messagePart");

    QTest::addRow("null") << QString() << true << QString();
    QTest::addRow("blank") << QStringLiteral(" ") << true << QString();
    QTest::addRow("empty array") << QStringLiteral("[]") << true << QString();
    QTest::addRow("strings") << QStringLiteral("[\"Zürich\", \"a|b\", \"\"]") << true << QString();
    QTest::addRow("multi-line strings") << QStringLiteral("[\n  \"one\",\n  \"two\"\n]") << true << QString();
    QTest::addRow("number at 1") << QStringLiteral("[\"a\", 1]") << false
                                 << QStringLiteral("examples[1] must be a string");
    QTest::addRow("null at 0") << QStringLiteral("[null, \"a\"]") << false
                               << QStringLiteral("examples[0] must be a string");
    QTest::addRow("nested array at 2") << QStringLiteral("[\"a\", \"b\", [\"c\"]]") << false
                                       << QStringLiteral("examples[2] must be a string");
    QTest::addRow("object at 1") << QStringLiteral("[\"a\", {\"body\": \"b\"}]") << false
                                 << QStringLiteral("examples[1] must be a string");
    QTest::addRow("object") << QStringLiteral("{\"a\": \"b\"}") << false
                            << QStringLiteral("examples must be a JSON array of body strings");
    QTest::addRow("broken") << QStringLiteral("[\"a\",\n \"b\"") << false
                            << QStringLiteral("examples is not JSON: line 2, column ");
    QTest::addRow("bare string") << QStringLiteral("a|b") << false
                                 << QStringLiteral("examples is not JSON: line 1, ");
}

void TestRowValidator::examples()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(QString, messagePart);

    Row row = validRow();
    row.examples = text;
    const QList<FieldProblem> problems = RowValidator::check(row);
    QCOMPARE(fieldsOf(problems), valid ? QStringList() : QStringList{QStringLiteral("examples")});
    if (!valid)
        QVERIFY2(problems.first().message.contains(messagePart), qPrintable(problems.first().message));
}

void TestRowValidator::aValidRowHasNoProblems()
{
    Row row = validRow();
    row.inputSchema = QStringLiteral("{\"type\":\"object\"}");
    row.examples = QStringLiteral("[\"\"]");
    QVERIFY(RowValidator::check(row).isEmpty());
    QVERIFY(RowValidator::describe(RowValidator::check(row)).isEmpty());
}

void TestRowValidator::checkReportsEveryFieldInOrder()
{
    Row row;
    row.key = QStringLiteral("bad key");
    row.type = QStringLiteral("sql");
    row.inputSchema = QStringLiteral("[]");
    row.examples = QStringLiteral("[1]");
    const QList<FieldProblem> problems = RowValidator::check(row);
    QCOMPARE(fieldsOf(problems), (QStringList{QStringLiteral("key"), QStringLiteral("type"),
                                              QStringLiteral("input_schema"), QStringLiteral("examples")}));
    for (const FieldProblem &problem : problems)
        QVERIFY2(!problem.message.isEmpty(), qPrintable(problem.field));
}

void TestRowValidator::checkFieldsJudgesOnlyNamedFields_data()
{
    QTest::addColumn<QStringList>("fields");
    QTest::addColumn<QStringList>("expected");

    const QString key = QStringLiteral("key");
    const QString type = QStringLiteral("type");
    const QString schema = QStringLiteral("input_schema");
    const QString examples = QStringLiteral("examples");

    QTest::addRow("none") << QStringList() << QStringList();
    QTest::addRow("fields without checks")
        << QStringList{QStringLiteral("content"), QStringLiteral("seq"), QStringLiteral("enabled")}
        << QStringList();
    QTest::addRow("unknown name") << QStringList{QStringLiteral("bogus")} << QStringList();
    QTest::addRow("key only") << QStringList{key} << QStringList{key};
    QTest::addRow("type only") << QStringList{type} << QStringList{type};
    QTest::addRow("schema only") << QStringList{schema} << QStringList{schema};
    QTest::addRow("examples only") << QStringList{examples} << QStringList{examples};
    QTest::addRow("in the order given")
        << QStringList{examples, QStringLiteral("target"), key} << QStringList{examples, key};
    QTest::addRow("all four") << QStringList{key, type, schema, examples}
                              << QStringList{key, type, schema, examples};
}

void TestRowValidator::checkFieldsJudgesOnlyNamedFields()
{
    QFETCH(QStringList, fields);
    QFETCH(QStringList, expected);

    // An old row that breaks every check: a patch is judged only on what it names.
    Row row;
    row.key = QStringLiteral("legacy-key");
    row.type = QStringLiteral("shell");
    row.inputSchema = QStringLiteral("{");
    row.examples = QStringLiteral("{}");
    QCOMPARE(fieldsOf(RowValidator::checkFields(row, fields)), expected);
}

void TestRowValidator::describeJoinsMessages()
{
    QCOMPARE(RowValidator::describe({}), QString());
    const FieldProblem key{QStringLiteral("key"), QStringLiteral("H001"), QStringLiteral("key_format"),
                           QStringLiteral("first")};
    const FieldProblem type{QStringLiteral("type"), QStringLiteral("V001"), QStringLiteral("type_known"),
                            QStringLiteral("second")};
    QCOMPARE(RowValidator::describe({key}), QStringLiteral("H001 key_format (key): first"));
    QCOMPARE(RowValidator::describe({key, type}),
             QStringLiteral("H001 key_format (key): first; V001 type_known (type): second"));
}

void TestRowValidator::problemsNameTheirRule_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QString>("rule"); // "CODE name", empty for none

    QTest::addRow("lower-case key") << QStringLiteral("key") << QVariant(QStringLiteral("lower_key"))
                                    << QStringLiteral("H001 key_format");
    QTest::addRow("fifth type") << QStringLiteral("type") << QVariant(QStringLiteral("cron"))
                                << QStringLiteral("V001 type_known");
    QTest::addRow("runner 'evil'") << QStringLiteral("runner") << QVariant(QStringLiteral("evil"))
                                   << QStringLiteral("V002 runner_known");
    QTest::addRow("runner 'edge'") << QStringLiteral("runner") << QVariant(QStringLiteral("edge"))
                                   << QString();
    QTest::addRow("runner 'worker'") << QStringLiteral("runner") << QVariant(QStringLiteral("worker"))
                                     << QString();
    QTest::addRow("runner empty") << QStringLiteral("runner") << QVariant(QStringLiteral("")) << QString();
    QTest::addRow("content at its limit")
        << QStringLiteral("content") << QVariant(QString(512 * 1024, u'x')) << QString();
    QTest::addRow("content a byte over")
        << QStringLiteral("content") << QVariant(QString(512 * 1024 + 1, u'x'))
        << QStringLiteral("V004 field_size");
    // Counted in UTF-8: 200,000 three-byte characters are 600,000 bytes.
    QTest::addRow("content over in UTF-8 bytes")
        << QStringLiteral("content") << QVariant(QString(200000, QChar(0x20AC)))
        << QStringLiteral("V004 field_size");
    QTest::addRow("target over") << QStringLiteral("target") << QVariant(QString(8 * 1024 + 1, u'x'))
                                 << QStringLiteral("V004 field_size");
    QTest::addRow("input_schema not JSON") << QStringLiteral("input_schema") << QVariant(QStringLiteral("{"))
                                           << QStringLiteral("H050 input_schema_json");
    QTest::addRow("examples not an array") << QStringLiteral("examples") << QVariant(QStringLiteral("{}"))
                                           << QStringLiteral("H051 examples_json");
}

void TestRowValidator::problemsNameTheirRule()
{
    QFETCH(QString, field);
    QFETCH(QVariant, value);
    QFETCH(QString, rule);

    Row row = validRow();
    QVERIFY(row.setValue(field, value));
    const QList<FieldProblem> problems = RowValidator::check(row);
    if (rule.isEmpty()) {
        QVERIFY2(problems.isEmpty(), qPrintable(RowValidator::describe(problems)));
        return;
    }
    QCOMPARE(problems.size(), 1);
    QCOMPARE(problems.first().field, field);
    QCOMPARE(problems.first().code + u' ' + problems.first().name, rule);
    // The refusal a store, the CLI and the server show names the rule.
    QVERIFY2(RowValidator::describe(problems).startsWith(rule + QStringLiteral(" (") + field
                                                         + QStringLiteral("): ")),
             qPrintable(RowValidator::describe(problems)));
    QCOMPARE(
        RowValidator::toJson(row.key, problems).first().toObject().value(QStringLiteral("code")).toString(),
        problems.first().code);
}

void TestRowValidator::timestamps_data()
{
    QTest::addColumn<QString>("stamp");
    QTest::addColumn<bool>("valid");

    QTest::addRow("the store's form") << QStringLiteral("2026-07-26T04:36:19.832Z") << true;
    QTest::addRow("29 February of a leap year") << QStringLiteral("2028-02-29T23:59:59.999Z") << true;
    QTest::addRow("29 February otherwise") << QStringLiteral("2026-02-29T00:00:00.000Z") << false;
    QTest::addRow("CR LF") << QStringLiteral("2026-07-26T04:36:19.832Z\r\nSet-Cookie: x") << false;
    QTest::addRow("seconds only") << QStringLiteral("2026-07-26T04:36:19Z") << false;
    QTest::addRow("an offset") << QStringLiteral("2026-07-26T04:36:19.832+00:00") << false;
    QTest::addRow("minute 60") << QStringLiteral("2026-07-26T04:60:00.000Z") << false;
    QTest::addRow("empty") << QString() << false;
}

void TestRowValidator::timestamps()
{
    QFETCH(QString, stamp);
    QFETCH(bool, valid);
    QCOMPARE(RowValidator::isStoreTimestamp(stamp), valid);
    Row row = validRow();
    row.updatedAt = stamp;
    row.createdAt = stamp;
    const QList<FieldProblem> problems = RowValidator::checkValidity(row);
    // An empty stamp is absent: the store writes one.
    QCOMPARE(problems.size(), valid || stamp.isEmpty() ? 0 : 2);
    for (const FieldProblem &problem : problems)
        QCOMPARE(problem.code, QStringLiteral("V003"));
    // A writer's timestamps are never kept, so a create is not refused for them.
    QVERIFY(RowValidator::check(row).isEmpty());
}

QTEST_GUILESS_MAIN(TestRowValidator)
#include "tst_rowvalidator.moc"
