#include "models/lintfindingmodel.h"
#include "models/lintstate.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

namespace {

LintFinding finding(const QString &key, const QString &code, const QString &severity, const QString &field)
{
    return {key, code, QStringLiteral("rule_") + code, severity, field, QStringLiteral("fix ") + field};
}

QStringList groupLabels(const LintFindingModel &model)
{
    QStringList labels;
    for (int row = 0; row < model.rowCount(); ++row)
        labels.append(model.index(row, 0).data().toString());
    return labels;
}

} // namespace

// The findings tree: grouping, filters, counts, and following the state it shows.
class TestLintFindingModel : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void passesTheModelTester();
    void groupsByRuleWithCounts();
    void groupsByRow();
    void filtersBySeverityAndCode();
    void followsReLintsOfOneRow();
    void showsWhatItLastReadUntilItsRebuild();

private:
    LintState m_state;
    std::unique_ptr<LintFindingModel> m_model;
};

void TestLintFindingModel::init()
{
    m_state.replaceAll({
        {QStringLiteral("ALPHA"),
         {finding(QStringLiteral("ALPHA"), QStringLiteral("H010"), QStringLiteral("error"),
                  QStringLiteral("content")),
          finding(QStringLiteral("ALPHA"), QStringLiteral("H015"), QStringLiteral("warning"),
                  QStringLiteral("content"))}},
        {QStringLiteral("BETA"),
         {finding(QStringLiteral("BETA"), QStringLiteral("H010"), QStringLiteral("error"),
                  QStringLiteral("content")),
          finding(QStringLiteral("BETA"), QStringLiteral("H020"), QStringLiteral("error"),
                  QStringLiteral("target"))}},
        {QStringLiteral("CLEAN"), {}},
    });
    m_model = std::make_unique<LintFindingModel>();
    m_model->setState(&m_state);
}

void TestLintFindingModel::passesTheModelTester()
{
    QAbstractItemModelTester tester(m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_model->setGrouping(LintFindingModel::Grouping::ByRow);
    m_model->setSeverityFilter(QStringLiteral("error"));
    m_model->setCodeFilter(QStringLiteral("H020"));
    m_model->setCodeFilter({});
    m_state.setFindings(QStringLiteral("GAMMA"), {finding(QStringLiteral("GAMMA"), QStringLiteral("H001"),
                                                          QStringLiteral("error"), QStringLiteral("key"))});
    QTRY_COMPARE(m_model->rowCount(), 3);
    m_state.clear();
    QCOMPARE(m_model->rowCount(), 0);
}

void TestLintFindingModel::groupsByRuleWithCounts()
{
    QCOMPARE(groupLabels(*m_model),
             (QStringList{QStringLiteral("H010 rule_H010 (2)"), QStringLiteral("H015 rule_H015 (1)"),
                          QStringLiteral("H020 rule_H020 (1)")}));
    const QModelIndex h010 = m_model->index(0, 0);
    QCOMPARE(h010.data(LintFindingModel::CountRole).toInt(), 2);
    QCOMPARE(m_model->rowCount(h010), 2);
    const QModelIndex first = m_model->index(0, 0, h010);
    QCOMPARE(first.data().toString(), QStringLiteral("ALPHA"));
    QCOMPARE(first.data(LintFindingModel::KeyRole).toString(), QStringLiteral("ALPHA"));
    QCOMPARE(first.data(LintFindingModel::FieldRole).toString(), QStringLiteral("content"));
    QVERIFY(!first.data(LintFindingModel::IsGroupRole).toBool());
    QCOMPARE(m_model->index(0, LintFindingModel::MessageColumn, h010).data().toString(),
             QStringLiteral("fix content"));
    QCOMPARE(m_model->errorCount(), 3);
    QCOMPARE(m_model->warningCount(), 1);
    QCOMPARE(m_model->rowCountWithFindings(), 2);
    QCOMPARE(m_model->shownFindings().size(), 4);
}

void TestLintFindingModel::groupsByRow()
{
    m_model->setGrouping(LintFindingModel::Grouping::ByRow);
    QCOMPARE(groupLabels(*m_model), (QStringList{QStringLiteral("ALPHA (2)"), QStringLiteral("BETA (2)")}));
    const QModelIndex beta = m_model->index(1, 0);
    QCOMPARE(beta.data(LintFindingModel::KeyRole).toString(), QStringLiteral("BETA"));
    QCOMPARE(m_model->index(1, 0, beta).data().toString(), QStringLiteral("H020 rule_H020"));
    QCOMPARE(m_model->index(1, 0, beta).data(LintFindingModel::FieldRole).toString(),
             QStringLiteral("target"));
}

void TestLintFindingModel::filtersBySeverityAndCode()
{
    m_model->setSeverityFilter(QStringLiteral("warning"));
    QCOMPARE(groupLabels(*m_model), QStringList{QStringLiteral("H015 rule_H015 (1)")});
    QCOMPARE(m_model->errorCount(), 0);
    m_model->setSeverityFilter({});
    m_model->setCodeFilter(QStringLiteral("H010"));
    m_model->setGrouping(LintFindingModel::Grouping::ByRow);
    QCOMPARE(groupLabels(*m_model), (QStringList{QStringLiteral("ALPHA (1)"), QStringLiteral("BETA (1)")}));
    QCOMPARE(m_model->shownFindings().size(), 2);
}

void TestLintFindingModel::followsReLintsOfOneRow()
{
    QSignalSpy counts(m_model.get(), &LintFindingModel::countsChanged);
    m_state.setFindings(QStringLiteral("BETA"), {});
    m_state.setFindings(QStringLiteral("ALPHA"), {});
    QVERIFY(counts.wait(1000));
    QCOMPARE(counts.count(), 1); // one rebuild for the burst
    QCOMPARE(m_model->rowCount(), 0);
}

// The groups point into the findings of the last rebuild rather than copying them: a
// re-lint between two rebuilds leaves what is shown readable, unchanged until the rebuild.
void TestLintFindingModel::showsWhatItLastReadUntilItsRebuild()
{
    const QModelIndex beta = m_model->index(1, 0, m_model->index(0, 0));
    QCOMPARE(beta.data(LintFindingModel::KeyRole).toString(), QStringLiteral("BETA"));
    QSignalSpy counts(m_model.get(), &LintFindingModel::countsChanged);
    m_state.setFindings(QStringLiteral("BETA"), {finding(QStringLiteral("BETA"), QStringLiteral("H030"),
                                                         QStringLiteral("warning"), QStringLiteral("auth"))});
    m_state.remove(QStringLiteral("ALPHA"));
    QCOMPARE(counts.count(), 0);
    QCOMPARE(m_model->index(0, 0).data().toString(), QStringLiteral("H010 rule_H010 (2)"));
    QCOMPARE(beta.data(LintFindingModel::KeyRole).toString(), QStringLiteral("BETA"));
    QCOMPARE(beta.data(LintFindingModel::FieldRole).toString(), QStringLiteral("content"));
    QCOMPARE(m_model->shownFindings().size(), 4);
    QVERIFY(counts.wait(1000));
    QCOMPARE(groupLabels(*m_model), QStringList({QStringLiteral("H030 rule_H030 (1)")}));
}

QTEST_GUILESS_MAIN(TestLintFindingModel)
#include "tst_lintfindingmodel.moc"
