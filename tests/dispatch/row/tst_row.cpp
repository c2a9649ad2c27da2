#include "dispatch/row/row.h"
#include "dispatch/row/rowschema.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

Q_DECLARE_METATYPE(Row)

// Row is the value every layer passes around: column access by production name, the
// null/empty distinction of nullable text, the integer columns' tolerance of what SQLite
// and JSON hand over, and the REST representation.
class TestRow : public QObject
{
    Q_OBJECT

private slots:
    void defaultsMatchTheTableDefaults();
    void setValueThenValue_data();
    void setValueThenValue();
    void refusalLeavesTheRowUnchanged_data();
    void refusalLeavesTheRowUnchanged();
    void jsonRoundTripIsEqual_data();
    void jsonRoundTripIsEqual();
    void toJsonNamesEveryColumnOnce();
    void fromJsonRefuses_data();
    void fromJsonRefuses();
    void fromJsonKeepsDefaultsForMissingFields();
    void equalityTellsNullFromEmpty();
};

namespace {

Row fullRow()
{
    Row row;
    row.key = QStringLiteral("ZZ_TEST_TEMPERATURE");
    row.type = QStringLiteral("http");
    row.target = QStringLiteral("GET https://api.example.com/t?city=$1");
    row.auth = QStringLiteral("bearer:WEATHER_KEY");
    row.content = QStringLiteral("# WHAT: temperature in Zürich, °C\n# ARGS: city\n");
    row.updatedAt = QStringLiteral("2026-07-26T04:36:19.832Z");
    row.category = QStringLiteral("weather");
    row.allowedCategories = QStringLiteral("weather,tools");
    row.seq = 42;
    row.enabled = false;
    row.plannerVisible = false;
    row.plannerRank = -7;
    row.inputSchema = QStringLiteral("{\"type\":\"object\"}");
    row.examples = QStringLiteral("[\"Zürich\"]");
    row.sensitive = true;
    row.runner = QStringLiteral("edge");
    row.includes = QStringLiteral("BASE_PROMPT,STYLE");
    row.createdAt = QStringLiteral("2026-01-01T00:00:00.000Z");
    return row;
}

} // namespace

void TestRow::defaultsMatchTheTableDefaults()
{
    const Row row;
    // enabled DEFAULT 1, planner_visible DEFAULT 1, planner_rank DEFAULT 100, sensitive DEFAULT 0.
    QCOMPARE(row.value(QStringLiteral("enabled")), QVariant(qint64(1)));
    QCOMPARE(row.value(QStringLiteral("planner_visible")), QVariant(qint64(1)));
    QCOMPARE(row.value(QStringLiteral("planner_rank")), QVariant(qint64(100)));
    QCOMPARE(row.value(QStringLiteral("sensitive")), QVariant(qint64(0)));
    QVERIFY(row.value(QStringLiteral("seq")).isNull());
    for (const QString &column : RowSchema::columns()) {
        if (!RowSchema::isIntegerColumn(column))
            QVERIFY2(row.value(column).isNull(), qPrintable(column));
    }
}

void TestRow::setValueThenValue_data()
{
    QTest::addColumn<QString>("column");
    QTest::addColumn<QVariant>("input");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<QVariant>("expected"); // value(column) afterwards, when accepted

    const QVariant null;
    // Every text column keeps NULL and "" apart.
    for (const QString &column : RowSchema::columns()) {
        if (RowSchema::isIntegerColumn(column))
            continue;
        const QByteArray name = column.toUtf8();
        QTest::addRow("%s null", name.constData()) << column << null << true << null;
        QTest::addRow("%s empty", name.constData())
            << column << QVariant(QString(QLatin1String(""))) << true << QVariant(QString(QLatin1String("")));
        QTest::addRow("%s text", name.constData())
            << column << QVariant(QStringLiteral("Grüße ✓")) << true << QVariant(QStringLiteral("Grüße ✓"));
        QTest::addRow("%s refuses integer", name.constData())
            << column << QVariant(qlonglong(5)) << false << null;
        QTest::addRow("%s refuses bool", name.constData()) << column << QVariant(true) << false << null;
    }

    const QString seq = QStringLiteral("seq");
    QTest::addRow("seq qlonglong") << seq << QVariant(qlonglong(7)) << true << QVariant(qint64(7));
    QTest::addRow("seq int") << seq << QVariant(int(-3)) << true << QVariant(qint64(-3));
    QTest::addRow("seq zero") << seq << QVariant(qlonglong(0)) << true << QVariant(qint64(0));
    QTest::addRow("seq big") << seq << QVariant(qlonglong(1) << 60) << true << QVariant(qint64(1) << 60);
    QTest::addRow("seq whole double") << seq << QVariant(12.0) << true << QVariant(qint64(12));
    QTest::addRow("seq fractional double") << seq << QVariant(12.5) << false << null;
    QTest::addRow("seq infinite double") << seq << QVariant(qInf()) << false << null;
    QTest::addRow("seq double past 2^53") << seq << QVariant(1.0e16) << false << null;
    QTest::addRow("seq bool true") << seq << QVariant(true) << true << QVariant(qint64(1));
    QTest::addRow("seq string") << seq << QVariant(QStringLiteral(" 42 ")) << true << QVariant(qint64(42));
    QTest::addRow("seq negative string")
        << seq << QVariant(QStringLiteral("-9")) << true << QVariant(qint64(-9));
    QTest::addRow("seq non-numeric string") << seq << QVariant(QStringLiteral("4x")) << false << null;
    QTest::addRow("seq empty string") << seq << QVariant(QString(QLatin1String(""))) << false << null;
    QTest::addRow("seq list") << seq << QVariant(QVariantList{1}) << false << null;
    QTest::addRow("seq null") << seq << null << true << null;

    const QString rank = QStringLiteral("planner_rank");
    QTest::addRow("planner_rank qlonglong") << rank << QVariant(qlonglong(5)) << true << QVariant(qint64(5));
    QTest::addRow("planner_rank double") << rank << QVariant(250.0) << true << QVariant(qint64(250));
    QTest::addRow("planner_rank bool") << rank << QVariant(false) << true << QVariant(qint64(0));
    QTest::addRow("planner_rank string")
        << rank << QVariant(QStringLiteral("3")) << true << QVariant(qint64(3));
    QTest::addRow("planner_rank allows 2") << rank << QVariant(qlonglong(2)) << true << QVariant(qint64(2));
    QTest::addRow("planner_rank null is the default") << rank << null << true << QVariant(qint64(100));
    QTest::addRow("planner_rank refuses text") << rank << QVariant(QStringLiteral("high")) << false << null;

    // The three booleans: 0 or 1 from any integer-ish source; 2 is refused; NULL is the default.
    const struct
    {
        const char *name;
        qint64 defaultValue;
    } booleans[] = {{"enabled", 1}, {"planner_visible", 1}, {"sensitive", 0}};
    for (const auto &[name, defaultValue] : booleans) {
        const QString column = QLatin1String(name);
        QTest::addRow("%s qlonglong 0", name)
            << column << QVariant(qlonglong(0)) << true << QVariant(qint64(0));
        QTest::addRow("%s qlonglong 1", name)
            << column << QVariant(qlonglong(1)) << true << QVariant(qint64(1));
        QTest::addRow("%s double 1", name) << column << QVariant(1.0) << true << QVariant(qint64(1));
        QTest::addRow("%s double 0", name) << column << QVariant(0.0) << true << QVariant(qint64(0));
        QTest::addRow("%s bool true", name) << column << QVariant(true) << true << QVariant(qint64(1));
        QTest::addRow("%s bool false", name) << column << QVariant(false) << true << QVariant(qint64(0));
        QTest::addRow("%s string 1", name)
            << column << QVariant(QStringLiteral("1")) << true << QVariant(qint64(1));
        QTest::addRow("%s string 0", name)
            << column << QVariant(QStringLiteral("0")) << true << QVariant(qint64(0));
        QTest::addRow("%s refuses 2", name) << column << QVariant(qlonglong(2)) << false << null;
        QTest::addRow("%s refuses -1", name) << column << QVariant(qlonglong(-1)) << false << null;
        QTest::addRow("%s refuses string 2", name)
            << column << QVariant(QStringLiteral("2")) << false << null;
        QTest::addRow("%s refuses 0.5", name) << column << QVariant(0.5) << false << null;
        QTest::addRow("%s refuses yes", name) << column << QVariant(QStringLiteral("yes")) << false << null;
        QTest::addRow("%s null is the default", name) << column << null << true << QVariant(defaultValue);
    }

    QTest::addRow("unknown column") << QStringLiteral("description") << QVariant(QStringLiteral("x")) << false
                                    << null;
    QTest::addRow("unknown column null") << QStringLiteral("nope") << null << false << null;
    QTest::addRow("column names are exact")
        << QStringLiteral("Key") << QVariant(QStringLiteral("A1")) << false << null;
    QTest::addRow("camelCase is not a column")
        << QStringLiteral("updatedAt") << QVariant(QStringLiteral("2026-01-01T00:00:00.000Z")) << false
        << null;
}

void TestRow::setValueThenValue()
{
    QFETCH(QString, column);
    QFETCH(QVariant, input);
    QFETCH(bool, accepted);
    QFETCH(QVariant, expected);

    // Start from values unlike every default, so a NULL visibly restores the default.
    Row row = fullRow();
    QString error;
    QCOMPARE(row.setValue(column, input, &error), accepted);
    if (!accepted) {
        QVERIFY2(error.contains(QLatin1Char('\'') + column + QLatin1Char('\'')), qPrintable(error));
        return;
    }
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QVariant actual = row.value(column);
    QCOMPARE(actual.isNull(), expected.isNull());
    QCOMPARE(actual, expected);
    if (!expected.isNull())
        QCOMPARE(actual.typeId(), expected.typeId());
    // The setter without an error pointer behaves the same.
    Row again = fullRow();
    QVERIFY(again.setValue(column, input));
    QVERIFY(again == row);
}

void TestRow::refusalLeavesTheRowUnchanged_data()
{
    QTest::addColumn<QString>("column");
    QTest::addColumn<QVariant>("input");

    QTest::addRow("text from integer") << QStringLiteral("content") << QVariant(qlonglong(1));
    QTest::addRow("seq from text") << QStringLiteral("seq") << QVariant(QStringLiteral("x"));
    QTest::addRow("enabled 2") << QStringLiteral("enabled") << QVariant(qlonglong(2));
    QTest::addRow("sensitive 2") << QStringLiteral("sensitive") << QVariant(2.0);
    QTest::addRow("unknown column") << QStringLiteral("risk") << QVariant(QStringLiteral("high"));
}

void TestRow::refusalLeavesTheRowUnchanged()
{
    QFETCH(QString, column);
    QFETCH(QVariant, input);

    const Row before = fullRow();
    Row row = before;
    QVERIFY(!row.setValue(column, input));
    QVERIFY(row == before);
}

void TestRow::jsonRoundTripIsEqual_data()
{
    QTest::addColumn<Row>("row");

    // A row from outside names its key and type (null ones are refused); the rest default.
    Row defaults;
    defaults.key = QStringLiteral("DEFAULTS");
    defaults.type = QStringLiteral("fn");
    QTest::addRow("defaults") << defaults;
    QTest::addRow("every field set") << fullRow();

    Row empties;
    empties.key = QStringLiteral("EMPTY_TEXT");
    empties.type = QStringLiteral("fn");
    for (const QString &column : RowSchema::columns()) {
        if (!RowSchema::isIntegerColumn(column) && empties.value(column).isNull())
            empties.setValue(column, QVariant(QString(QLatin1String(""))));
    }
    empties.seq = 0;
    QTest::addRow("empty strings and seq 0") << empties;

    Row mixed = fullRow();
    mixed.target = QString();
    mixed.auth = QString(QLatin1String(""));
    mixed.seq.reset();
    mixed.plannerRank = 0;
    mixed.content = QStringLiteral("line one\nline \"two\"\t\\ 日本語 🙂");
    QTest::addRow("nulls beside empties") << mixed;

    Row bigSeq = fullRow();
    bigSeq.seq = qint64(1) << 52;
    bigSeq.plannerRank = -(qint64(1) << 40);
    QTest::addRow("large integers") << bigSeq;
}

void TestRow::jsonRoundTripIsEqual()
{
    QFETCH(Row, row);
    QString error;
    const std::optional<Row> back = Row::fromJson(row.toJson(), &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QVERIFY(*back == row);
    // Column by column as well, so a failure names the column.
    for (const QString &column : RowSchema::columns()) {
        const QVariant a = back->value(column);
        const QVariant b = row.value(column);
        QVERIFY2(a.isNull() == b.isNull() && a == b, qPrintable(column));
    }
}

void TestRow::toJsonNamesEveryColumnOnce()
{
    Row row = fullRow();
    row.target = QString();
    row.seq.reset();
    const QJsonObject json = row.toJson();
    QCOMPARE(json.keys().size(), RowSchema::columns().size());
    for (const QString &column : RowSchema::columns())
        QVERIFY2(json.contains(column), qPrintable(column));
    QVERIFY(json.value(QStringLiteral("target")).isNull());
    QVERIFY(json.value(QStringLiteral("seq")).isNull());
    QCOMPARE(json.value(QStringLiteral("key")).toString(), row.key);
    QCOMPARE(json.value(QStringLiteral("planner_rank")).toInteger(), qint64(-7));
    QCOMPARE(json.value(QStringLiteral("enabled")).toInteger(), qint64(0));
    QCOMPARE(json.value(QStringLiteral("sensitive")).toInteger(), qint64(1));
    QCOMPARE(json.value(QStringLiteral("content")).toString(), row.content);
}

void TestRow::fromJsonRefuses_data()
{
    QTest::addColumn<QJsonObject>("object");
    QTest::addColumn<QString>("field"); // the field the message must name

    const QJsonObject base{{QStringLiteral("key"), QStringLiteral("NOW")},
                           {QStringLiteral("type"), QStringLiteral("fn")}};
    auto with = [&base](const char *name, const QJsonValue &value) {
        QJsonObject object = base;
        object.insert(QLatin1String(name), value);
        return object;
    };

    QTest::addRow("unknown field") << with("description", QStringLiteral("x"))
                                   << QStringLiteral("description");
    QTest::addRow("unknown null field") << with("risk", QJsonValue::Null) << QStringLiteral("risk");
    QTest::addRow("camelCase field") << with("updatedAt", QStringLiteral("2026"))
                                     << QStringLiteral("updatedAt");
    QTest::addRow("key as number") << with("key", 5) << QStringLiteral("key");
    QTest::addRow("content as array")
        << with("content", QJsonArray{QStringLiteral("a")}) << QStringLiteral("content");
    QTest::addRow("examples as array")
        << with("examples", QJsonArray{QStringLiteral("a")}) << QStringLiteral("examples");
    QTest::addRow("input_schema as object")
        << with("input_schema", QJsonObject{{QStringLiteral("type"), 1}}) << QStringLiteral("input_schema");
    QTest::addRow("category as bool") << with("category", true) << QStringLiteral("category");
    QTest::addRow("seq as text") << with("seq", QStringLiteral("first")) << QStringLiteral("seq");
    QTest::addRow("seq fractional") << with("seq", 1.5) << QStringLiteral("seq");
    QTest::addRow("seq as object") << with("seq", QJsonObject()) << QStringLiteral("seq");
    QTest::addRow("enabled 2") << with("enabled", 2) << QStringLiteral("enabled");
    QTest::addRow("planner_visible -1") << with("planner_visible", -1) << QStringLiteral("planner_visible");
    QTest::addRow("sensitive as text")
        << with("sensitive", QStringLiteral("high")) << QStringLiteral("sensitive");
    QTest::addRow("planner_rank as array")
        << with("planner_rank", QJsonArray{1}) << QStringLiteral("planner_rank");
    // Nothing from outside is coerced (issue 13): no bools, numeric text, fractions, nulls
    // for a defaulted column, or numbers past what every JSON reader holds exactly.
    QTest::addRow("enabled true") << with("enabled", true) << QStringLiteral("enabled");
    QTest::addRow("sensitive false") << with("sensitive", false) << QStringLiteral("sensitive");
    QTest::addRow("enabled null") << with("enabled", QJsonValue::Null) << QStringLiteral("enabled");
    QTest::addRow("planner_rank null")
        << with("planner_rank", QJsonValue::Null) << QStringLiteral("planner_rank");
    QTest::addRow("seq as numeric text") << with("seq", QStringLiteral("1")) << QStringLiteral("seq");
    QTest::addRow("planner_rank 1e300") << with("planner_rank", 1e300) << QStringLiteral("planner_rank");
    QTest::addRow("seq 2^53") << with("seq", qint64(1) << 53) << QStringLiteral("seq");
    QTest::addRow("seq -2^53") << with("seq", -(qint64(1) << 53)) << QStringLiteral("seq");
    QTest::addRow("key null") << with("key", QJsonValue::Null) << QStringLiteral("key");
    QTest::addRow("type null") << with("type", QJsonValue::Null) << QStringLiteral("type");
}

void TestRow::fromJsonRefuses()
{
    QFETCH(QJsonObject, object);
    QFETCH(QString, field);
    QString error;
    const std::optional<Row> row = Row::fromJson(object, &error);
    QVERIFY(!row.has_value());
    QVERIFY2(error.contains(QLatin1Char('\'') + field + QLatin1Char('\'')), qPrintable(error));
    QVERIFY(!Row::fromJson(object).has_value());
}

void TestRow::fromJsonKeepsDefaultsForMissingFields()
{
    QString error;
    const std::optional<Row> empty = Row::fromJson(QJsonObject(), &error);
    QVERIFY2(empty.has_value(), qPrintable(error));
    QVERIFY(*empty == Row());

    const std::optional<Row> some =
        Row::fromJson(QJsonObject{{QStringLiteral("key"), QStringLiteral("NOW")},
                                  {QStringLiteral("enabled"), 0},
                                  {QStringLiteral("seq"), QJsonValue::Null},
                                  {QStringLiteral("target"), QString(QLatin1String(""))}},
                      &error);
    QVERIFY2(some.has_value(), qPrintable(error));
    QCOMPARE(some->key, QStringLiteral("NOW"));
    QVERIFY(!some->enabled);
    QVERIFY(!some->seq.has_value());
    QCOMPARE(some->plannerRank, qint64(100));
    QVERIFY(some->plannerVisible);
    QVERIFY(!some->sensitive);
    QVERIFY(some->type.isNull());
    QVERIFY(!some->target.isNull());
    QVERIFY(some->target.isEmpty());
}

void TestRow::equalityTellsNullFromEmpty()
{
    Row a = fullRow();
    Row b = fullRow();
    QVERIFY(a == b);
    QVERIFY(!(a != b));
    a.runner = QString();
    b.runner = QString(QLatin1String(""));
    QVERIFY(a != b);
    b.runner = QString();
    QVERIFY(a == b);
    b.seq = 0;
    a.seq.reset();
    QVERIFY(a != b);
    a.seq = 0;
    QVERIFY(a == b);
    a.plannerRank = 101;
    QVERIFY(a != b);
}

QTEST_GUILESS_MAIN(TestRow)
#include "tst_row.moc"
