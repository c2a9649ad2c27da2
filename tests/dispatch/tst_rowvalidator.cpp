#include "row.h"
#include "rowvalidator.h"

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
    QCOMPARE(RowValidator::describe({{QStringLiteral("key"), QStringLiteral("first")}}),
             QStringLiteral("first"));
    QCOMPARE(RowValidator::describe({{QStringLiteral("key"), QStringLiteral("first")},
                                     {QStringLiteral("type"), QStringLiteral("second")}}),
             QStringLiteral("first; second"));
}

QTEST_GUILESS_MAIN(TestRowValidator)
#include "tst_rowvalidator.moc"
