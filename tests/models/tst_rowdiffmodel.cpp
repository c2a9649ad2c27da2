#include "models/rowdiffmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonObject>
#include <QTest>

namespace {

QJsonObject row(const QJsonObject &changes = {})
{
    QJsonObject object{{QStringLiteral("key"), QStringLiteral("ECHO")},
                       {QStringLiteral("type"), QStringLiteral("fn")},
                       {QStringLiteral("target"), QStringLiteral("echo")},
                       {QStringLiteral("auth"), QJsonValue::Null},
                       {QStringLiteral("content"), QStringLiteral("# WHAT: echo\n[\"$1\"]")},
                       {QStringLiteral("enabled"), 1},
                       {QStringLiteral("planner_rank"), 100}};
    for (auto it = changes.constBegin(); it != changes.constEnd(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

} // namespace

// RowDiffModel: only the fields that differ, in column order, long text marked by line.
class TestRowDiffModel final : public QObject
{
    Q_OBJECT

private slots:
    void listsOnlyChangedFields_data();
    void listsOnlyChangedFields();
    void marksChangedLinesOfLongText();
    void foldsLongUnchangedStretches();
    void showsMissingRowsAndNulls();
};

void TestRowDiffModel::listsOnlyChangedFields_data()
{
    QTest::addColumn<QJsonValue>("before");
    QTest::addColumn<QJsonValue>("after");
    QTest::addColumn<QStringList>("fields");

    QTest::addRow("no change") << QJsonValue(row()) << QJsonValue(row()) << QStringList();
    QTest::addRow("one field") << QJsonValue(row())
                               << QJsonValue(row({{QStringLiteral("target"), QStringLiteral("upper")}}))
                               << QStringList{QStringLiteral("target")};
    QTest::addRow("two fields, in column order")
        << QJsonValue(row())
        << QJsonValue(row(
               {{QStringLiteral("planner_rank"), 5}, {QStringLiteral("auth"), QStringLiteral("bearer:X")}}))
        << QStringList{QStringLiteral("auth"), QStringLiteral("planner_rank")};
    QTest::addRow("updated_at alone is no change")
        << QJsonValue(row())
        << QJsonValue(row({{QStringLiteral("updated_at"), QStringLiteral("2026-01-01T00:00:00.000Z")}}))
        << QStringList();
    QTest::addRow("created: the fields it set")
        << QJsonValue() << QJsonValue(row())
        << QStringList{QStringLiteral("key"),     QStringLiteral("type"),    QStringLiteral("target"),
                       QStringLiteral("content"), QStringLiteral("enabled"), QStringLiteral("planner_rank")};
    QTest::addRow("deleted") << QJsonValue(row({{QStringLiteral("content"), QJsonValue::Null}}))
                             << QJsonValue()
                             << QStringList{QStringLiteral("key"), QStringLiteral("type"),
                                            QStringLiteral("target"), QStringLiteral("enabled"),
                                            QStringLiteral("planner_rank")};
}

void TestRowDiffModel::listsOnlyChangedFields()
{
    QFETCH(QJsonValue, before);
    QFETCH(QJsonValue, after);
    QFETCH(QStringList, fields);

    RowDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setVersions(before, after);
    QCOMPARE(model.fields(), fields);
    QCOMPARE(model.rowCount(), fields.size());
    for (int i = 0; i < fields.size(); ++i)
        QCOMPARE(model.index(i, RowDiffModel::FieldColumn).data().toString(), fields.at(i));
}

void TestRowDiffModel::marksChangedLinesOfLongText()
{
    RowDiffModel model;
    model.setVersions(
        row({{QStringLiteral("content"), QStringLiteral("# WHAT: echo\n# ARGS: one\n[\"$1\"]")}}),
        row({{QStringLiteral("content"), QStringLiteral("# WHAT: echo\n# ARGS: two\n[\"$1\"]")}}));
    QCOMPARE(model.fields(), QStringList{QStringLiteral("content")});
    QCOMPARE(model.index(0, RowDiffModel::BeforeColumn).data().toString(),
             QStringLiteral("  # WHAT: echo\n- # ARGS: one\n  [\"$1\"]"));
    QCOMPARE(model.index(0, RowDiffModel::AfterColumn).data().toString(),
             QStringLiteral("  # WHAT: echo\n+ # ARGS: two\n  [\"$1\"]"));
}

void TestRowDiffModel::foldsLongUnchangedStretches()
{
    QStringList lines;
    for (int i = 0; i < 20; ++i)
        lines.append(QStringLiteral("line %1").arg(i));
    const QString before = lines.join(u'\n');
    lines[10] = QStringLiteral("changed");
    RowDiffModel model;
    model.setVersions(row({{QStringLiteral("content"), before}}),
                      row({{QStringLiteral("content"), lines.join(u'\n')}}));
    const QString after = model.index(0, RowDiffModel::AfterColumn).data().toString();
    QCOMPARE(after,
             QStringLiteral("  … 8 unchanged lines\n  line 8\n  line 9\n+ changed\n  line 11\n  line 12\n"
                            "  … 7 unchanged lines"));
}

void TestRowDiffModel::showsMissingRowsAndNulls()
{
    RowDiffModel model;
    model.setVersions(QJsonValue(), row());
    QCOMPARE(model.index(0, RowDiffModel::BeforeColumn).data().toString(), QStringLiteral("(no row)"));
    QVERIFY(model.index(0, RowDiffModel::BeforeColumn).data(Qt::ForegroundRole).isValid());
    QVERIFY(!model.index(0, RowDiffModel::AfterColumn).data(Qt::ForegroundRole).isValid());

    model.setVersions(row(), row({{QStringLiteral("target"), QJsonValue::Null}}));
    QCOMPARE(model.index(0, RowDiffModel::AfterColumn).data().toString(), QStringLiteral("NULL"));
    QCOMPARE(model.headerData(RowDiffModel::AfterColumn, Qt::Horizontal).toString(), QStringLiteral("After"));
}

QTEST_MAIN(TestRowDiffModel)
#include "tst_rowdiffmodel.moc"
