#include "models/receiptsummarytable.h"
#include "models/receipttreemodel.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QTest>

// The tree of one trace built from the parent column, including the shapes a damaged or
// partial log can have: a parent outside the table, a receipt naming itself, a loop.
class TestReceiptTreeModel : public QObject
{
    Q_OBJECT

private slots:
    void passesTheModelTester();
    void nestsAFlowAboveItsCalls();
    void marksTheChosenReceipt();
    void showsOnlyTheChosenTrace();
    void keepsOrphansSelfParentsAndLoopsOnTop();
    void isEmptyForAnUnknownInvocation();

private:
    static ReceiptSummaryTable table();
    static QStringList shape(const ReceiptTreeModel &model, const QModelIndex &parent = {}, int depth = 0);
};

namespace {

struct Entry
{
    const char *id;
    const char *trace;
    const char *parent;
};

// Calls finish before the flow that made them, so children come first in seq order.
constexpr Entry kEntries[] = {
    {"inv_b", "t_one", "inv_a"}, {"inv_d", "t_one", "inv_c"}, {"inv_c", "t_one", "inv_a"},
    {"inv_a", "t_one", ""},      {"inv_x", "t_two", ""},      {"inv_f", "t_one", "inv_gone"},
    {"inv_g", "t_one", "inv_g"}, {"inv_h", "t_one", "inv_i"}, {"inv_i", "t_one", "inv_h"},
};

} // namespace

ReceiptSummaryTable TestReceiptTreeModel::table()
{
    ReceiptSummaryTable table;
    qint64 seq = 0;
    for (const Entry &entry : kEntries) {
        ReceiptSummaryView view;
        view.seq = ++seq;
        view.invocationId = entry.id;
        view.trace = entry.trace;
        view.parent = entry.parent;
        view.key = entry.parent[0] ? "CALL" : "FLOW";
        view.actor = "owner:terminal-key";
        view.runner = entry.parent[0] ? "fn" : "flow";
        view.startedAt = "2026-01-01T00:00:00.000Z";
        view.status = "PROVEN_MATERIAL_RESULT";
        view.durationMs = 10 * seq;
        view.material = true;
        table.append(view);
    }
    return table;
}

QStringList TestReceiptTreeModel::shape(const ReceiptTreeModel &model, const QModelIndex &parent, int depth)
{
    QStringList lines;
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        lines.append(QString(depth * 2, u' ') + index.data().toString());
        lines += shape(model, index, depth + 1);
    }
    return lines;
}

void TestReceiptTreeModel::passesTheModelTester()
{
    ReceiptTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const ReceiptSummaryTable receipts = table();
    model.showTraceOf(receipts, QStringLiteral("inv_d"));
    model.showTraceOf(receipts, QStringLiteral("inv_x"));
    model.clear();
}

void TestReceiptTreeModel::nestsAFlowAboveItsCalls()
{
    ReceiptTreeModel model;
    model.showTraceOf(table(), QStringLiteral("inv_a"));
    QCOMPARE(model.trace(), QStringLiteral("t_one"));
    const QStringList lines = shape(model);
    QCOMPARE(lines.mid(0, 4), QStringList({QStringLiteral("inv_a"), QStringLiteral("  inv_b"),
                                           QStringLiteral("  inv_c"), QStringLiteral("    inv_d")}));
    const QModelIndex d = model.indexOfInvocation(QStringLiteral("inv_d"));
    QCOMPARE(d.parent().data().toString(), QStringLiteral("inv_c"));
    QCOMPARE(d.parent().parent().data().toString(), QStringLiteral("inv_a"));
    QCOMPARE(model.index(0, ReceiptTreeModel::RunnerColumn).data().toString(), QStringLiteral("flow"));
    QCOMPARE(model.index(0, ReceiptTreeModel::DurationColumn).data().toString(), QStringLiteral("40 ms"));
}

void TestReceiptTreeModel::marksTheChosenReceipt()
{
    ReceiptTreeModel model;
    model.showTraceOf(table(), QStringLiteral("inv_c"));
    QCOMPARE(model.marked(), QStringLiteral("inv_c"));
    QVERIFY(model.indexOfInvocation(QStringLiteral("inv_c")).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(!model.indexOfInvocation(QStringLiteral("inv_a")).data(Qt::FontRole).isValid());
    QCOMPARE(
        model.indexOfInvocation(QStringLiteral("inv_c")).data(ReceiptTreeModel::InvocationIdRole).toString(),
        QStringLiteral("inv_c"));
}

void TestReceiptTreeModel::showsOnlyTheChosenTrace()
{
    ReceiptTreeModel model;
    model.showTraceOf(table(), QStringLiteral("inv_x"));
    QCOMPARE(shape(model), QStringList({QStringLiteral("inv_x")}));
    QVERIFY(!model.indexOfInvocation(QStringLiteral("inv_a")).isValid());
}

void TestReceiptTreeModel::keepsOrphansSelfParentsAndLoopsOnTop()
{
    ReceiptTreeModel model;
    model.showTraceOf(table(), QStringLiteral("inv_b"));
    // Every receipt of the trace appears exactly once, whatever its parent says.
    QCOMPARE(shape(model),
             QStringList({QStringLiteral("inv_a"), QStringLiteral("  inv_b"), QStringLiteral("  inv_c"),
                          QStringLiteral("    inv_d"), QStringLiteral("inv_f"), QStringLiteral("inv_g"),
                          QStringLiteral("inv_h"), QStringLiteral("  inv_i")}));
}

void TestReceiptTreeModel::isEmptyForAnUnknownInvocation()
{
    ReceiptTreeModel model;
    model.showTraceOf(table(), QStringLiteral("inv_a"));
    model.showTraceOf(table(), QStringLiteral("inv_nowhere"));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.trace().isEmpty());
}

QTEST_MAIN(TestReceiptTreeModel)
#include "tst_receipttreemodel.moc"
