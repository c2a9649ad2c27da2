#include "models/categorycountmodel.h"
#include "models/summarytable.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

// The category list beside the table: "All categories" with the total first, then one
// entry per category with its count, rows without a category under "(no category)".
class TestCategoryCountModel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void countsCategories_data();
    void countsCategories();
    void rebuildFollowsTheTable();
    void passesTheModelTester();
    void outOfRangeIndexesGiveNothing();
};

namespace {

SummaryTable tableWith(const QStringList &categories)
{
    SummaryTable table;
    int i = 0;
    for (const QString &category : categories)
        table.append(RowSummary{QStringLiteral("ROW_%1").arg(++i), QStringLiteral("fn"), category,
                                QStringLiteral("echo"), QStringLiteral("2026-07-26T04:36:19.832Z"), true,
                                false});
    return table;
}

// "category=count" per entry after "All", as the model lists them; "" is "(no category)".
QStringList entries(const CategoryCountModel &model)
{
    QStringList list;
    for (int row = 1; row < model.rowCount(); ++row) {
        const QModelIndex index = model.index(row);
        list.append(
            QStringLiteral("%1=%2").arg(index.data(CategoryCountModel::CategoryRole).toString(),
                                        QString::number(index.data(CategoryCountModel::CountRole).toInt())));
    }
    return list;
}

void verifyAllEntry(const CategoryCountModel &model, int total)
{
    QVERIFY(model.rowCount() >= 1);
    const QModelIndex all = model.index(0);
    QVERIFY(all.data(CategoryCountModel::IsAllRole).toBool());
    QCOMPARE(all.data(CategoryCountModel::CountRole).toInt(), total);
    QVERIFY(all.data(CategoryCountModel::CategoryRole).toString().isEmpty());
    QCOMPARE(all.data(Qt::DisplayRole).toString(),
             QStringLiteral("All categories  (%1)").arg(QLocale().toString(total)));
    for (int row = 1; row < model.rowCount(); ++row)
        QVERIFY(!model.index(row).data(CategoryCountModel::IsAllRole).toBool());
}

} // namespace

void TestCategoryCountModel::initTestCase()
{
    // Counts are shown with the locale's digit grouping; pin it so the texts are exact.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestCategoryCountModel::countsCategories_data()
{
    QTest::addColumn<QStringList>("categories"); // one per row
    QTest::addColumn<QStringList>("expected"); // "category=count" after "All", in order
    QTest::addColumn<QStringList>("displayed"); // display texts after "All"

    QTest::addRow("empty table") << QStringList() << QStringList() << QStringList();
    QTest::addRow("one category") << QStringList{QStringLiteral("tools")}
                                  << QStringList{QStringLiteral("tools=1")}
                                  << QStringList{QStringLiteral("tools  (1)")};
    QTest::addRow("counts per category")
        << QStringList{QStringLiteral("weather"), QStringLiteral("tools"),   QStringLiteral("weather"),
                       QStringLiteral("llm"),     QStringLiteral("weather"), QStringLiteral("tools")}
        << QStringList{QStringLiteral("llm=1"), QStringLiteral("tools=2"), QStringLiteral("weather=3")}
        << QStringList{QStringLiteral("llm  (1)"), QStringLiteral("tools  (2)"),
                       QStringLiteral("weather  (3)")};
    QTest::addRow("NULL and empty are both no category")
        << QStringList{QString(), QString(QLatin1String("")), QStringLiteral("tools"), QString()}
        << QStringList{QStringLiteral("=3"), QStringLiteral("tools=1")}
        << QStringList{QStringLiteral("(no category)  (3)"), QStringLiteral("tools  (1)")};
    QTest::addRow("only uncategorised")
        << QStringList{QString(), QString()} << QStringList{QStringLiteral("=2")}
        << QStringList{QStringLiteral("(no category)  (2)")};
    QTest::addRow("case and spacing are distinct")
        << QStringList{QStringLiteral("Tools"), QStringLiteral("tools"), QStringLiteral("tools ")}
        << QStringList{QStringLiteral("Tools=1"), QStringLiteral("tools=1"), QStringLiteral("tools =1")}
        << QStringList{QStringLiteral("Tools  (1)"), QStringLiteral("tools  (1)"),
                       QStringLiteral("tools   (1)")};
    QTest::addRow("non-ASCII names") << QStringList{QStringLiteral("Städte"), QStringLiteral("東京"),
                                                    QStringLiteral("Städte")}
                                     << QStringList{QStringLiteral("Städte=2"), QStringLiteral("東京=1")}
                                     << QStringList{QStringLiteral("Städte  (2)"),
                                                    QStringLiteral("東京  (1)")};
    QStringList many(1234, QStringLiteral("bulk"));
    many.append(QStringLiteral("rare"));
    QTest::addRow("large counts") << many
                                  << QStringList{QStringLiteral("bulk=1234"), QStringLiteral("rare=1")}
                                  << QStringList{QStringLiteral("bulk  (1,234)"),
                                                 QStringLiteral("rare  (1)")};
}

void TestCategoryCountModel::countsCategories()
{
    QFETCH(QStringList, categories);
    QFETCH(QStringList, expected);
    QFETCH(QStringList, displayed);

    CategoryCountModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.rebuild(tableWith(categories));
    QCOMPARE(model.rowCount(), int(expected.size()) + 1);
    verifyAllEntry(model, int(categories.size()));
    QCOMPARE(entries(model), expected);
    QStringList texts;
    for (int row = 1; row < model.rowCount(); ++row)
        texts.append(model.index(row).data(Qt::DisplayRole).toString());
    QCOMPARE(texts, displayed);
    // The counts add up to the total.
    int sum = 0;
    for (int row = 1; row < model.rowCount(); ++row)
        sum += model.index(row).data(CategoryCountModel::CountRole).toInt();
    QCOMPARE(sum, int(categories.size()));
}

void TestCategoryCountModel::rebuildFollowsTheTable()
{
    CategoryCountModel model;
    QCOMPARE(model.rowCount(), 0); // nothing before the first rebuild
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    SummaryTable table =
        tableWith({QStringLiteral("tools"), QStringLiteral("weather"), QStringLiteral("tools"), QString()});
    model.rebuild(table);
    QCOMPARE(reset.size(), 1);
    verifyAllEntry(model, 4);
    QCOMPARE(entries(model),
             (QStringList{QStringLiteral("=1"), QStringLiteral("tools=2"), QStringLiteral("weather=1")}));

    // Recategorise a row: the old category's count drops, the new one appears.
    table.assign(1,
                 RowSummary{QStringLiteral("ROW_2"), QStringLiteral("fn"), QStringLiteral("llm"),
                            QStringLiteral("echo"), QStringLiteral("2026-07-26T04:36:19.832Z"), true, false});
    model.rebuild(table);
    QCOMPARE(reset.size(), 2);
    verifyAllEntry(model, 4);
    QCOMPARE(entries(model),
             (QStringList{QStringLiteral("=1"), QStringLiteral("llm=1"), QStringLiteral("tools=2")}));

    // Remove the uncategorised row and one "tools" row.
    table.removeFlagged({0, 0, 1, 1});
    model.rebuild(table);
    verifyAllEntry(model, 2);
    QCOMPARE(entries(model), (QStringList{QStringLiteral("llm=1"), QStringLiteral("tools=1")}));

    table.removeAt(0);
    table.append(RowSummary{QStringLiteral("ROW_9"), QStringLiteral("http"), QStringLiteral("llm"),
                            QStringLiteral("GET https://example.com"),
                            QStringLiteral("2026-07-26T04:36:19.832Z"), false, true});
    model.rebuild(table);
    verifyAllEntry(model, 2);
    QCOMPARE(entries(model), QStringList{QStringLiteral("llm=2")});

    table.clear();
    model.rebuild(table);
    QCOMPARE(model.rowCount(), 1);
    verifyAllEntry(model, 0);
    QCOMPARE(reset.size(), 5);
}

void TestCategoryCountModel::passesTheModelTester()
{
    CategoryCountModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    SummaryTable table =
        tableWith({QStringLiteral("b"), QStringLiteral("a"), QString(), QStringLiteral("b")});
    model.rebuild(table);
    model.rebuild(SummaryTable());
    model.rebuild(table);
    const QAbstractItemModel &base = model;
    QCOMPARE(base.columnCount(), 1);
    QVERIFY(!base.hasChildren(model.index(0)));
    QCOMPARE(model.rowCount(model.index(0)), 0);
}

void TestCategoryCountModel::outOfRangeIndexesGiveNothing()
{
    CategoryCountModel model;
    model.rebuild(tableWith({QStringLiteral("tools")}));
    QVERIFY(!model.index(2).isValid());
    QVERIFY(!model.data(QModelIndex(), Qt::DisplayRole).isValid());
    QVERIFY(!model.data(model.index(1), Qt::DecorationRole).isValid());
    QCOMPARE(model.data(model.index(1), Qt::DisplayRole).toString(), QStringLiteral("tools  (1)"));
}

QTEST_GUILESS_MAIN(TestCategoryCountModel)
#include "tst_categorycountmodel.moc"
