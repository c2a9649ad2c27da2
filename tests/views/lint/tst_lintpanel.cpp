#include "dispatch/lint/linter.h"
#include "models/directorydocument.h"
#include "models/lintcontroller.h"
#include "models/lintfindingmodel.h"
#include "tests/support/lintfixture.h"
#include "tests/views/viewtestsupport.h"
#include "views/lint/lintpanel.h"

#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTreeView>

using namespace LintFixture;

// The lint panel over a linted directory: clicking a finding, the filters, the counts and
// the exported report.
class TestLintPanel : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void clickingAFindingAsksForItsRowAndField();
    void filtersNarrowTheTreeAndTheCounts();
    void exportWritesTheShownFindingsAsJson();
    void progressShowsWhileLintAllRuns();
    void columnsFitRuleNamesAndKeys();

private:
    template<typename Widget>
    Widget *child(const QString &name) const
    {
        auto *widget = m_panel->findChild<Widget *>(name);
        if (!widget)
            qFatal("no child %s", qPrintable(name));
        return widget;
    }
    QModelIndex findingOf(const QString &key, const QString &code) const;

    std::unique_ptr<QTemporaryDir> m_dir;
    FakePrompter m_prompter;
    std::unique_ptr<DirectoryDocument> m_document;
    std::unique_ptr<LintController> m_lint;
    std::unique_ptr<LintPanel> m_panel;
};

void TestLintPanel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto store = openStore(m_dir->filePath(QStringLiteral("d.db")),
                           {goodRow(QStringLiteral("ECHO_A")), warningRow(QStringLiteral("WARN_ROW")),
                            undocumentedRow(QStringLiteral("BAD_ROW"))});
    QVERIFY(store);
    m_document = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!m_document->load().isError());
    m_lint = std::make_unique<LintController>();
    m_lint->setDocument(m_document.get(), true);
    m_panel = std::make_unique<LintPanel>(m_prompter);
    m_panel->setController(m_lint.get());
    m_panel->resize(900, 400);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    QSignalSpy finished(m_lint.get(), &LintController::finished);
    m_lint->lintAll();
    QVERIFY(finished.count() == 1 || finished.wait(5000));
}

void TestLintPanel::cleanup()
{
    m_panel.reset();
    m_lint.reset();
    m_document.reset();
    m_dir.reset();
}

QModelIndex TestLintPanel::findingOf(const QString &key, const QString &code) const
{
    const LintFindingModel *model = m_panel->model();
    for (int group = 0; group < model->rowCount(); ++group) {
        const QModelIndex parent = model->index(group, 0);
        for (int row = 0; row < model->rowCount(parent); ++row) {
            const QModelIndex index = model->index(row, 0, parent);
            if (index.data(LintFindingModel::KeyRole) == key
                && index.data(LintFindingModel::CodeRole) == code)
                return index;
        }
    }
    return {};
}

void TestLintPanel::clickingAFindingAsksForItsRowAndField()
{
    QSignalSpy activated(m_panel.get(), &LintPanel::findingActivated);
    QTreeView *tree = m_panel->tree();
    const QModelIndex finding = findingOf(QStringLiteral("BAD_ROW"), QStringLiteral("H011"));
    QVERIFY(finding.isValid());
    tree->expand(finding.parent());
    tree->scrollTo(finding);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(finding).center());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().at(0).toString(), QStringLiteral("BAD_ROW"));
    QCOMPARE(activated.first().at(1).toString(), finding.data(LintFindingModel::FieldRole).toString());

    // A group is not a finding: clicking it only opens it.
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(finding.parent()).center());
    QCOMPARE(activated.count(), 1);
}

void TestLintPanel::filtersNarrowTheTreeAndTheCounts()
{
    auto *counts = child<QLabel>(QStringLiteral("lintCounts"));
    QVERIFY2(counts->text().contains(QLatin1String("in 2 rows")), qPrintable(counts->text()));
    auto *severity = child<QComboBox>(QStringLiteral("lintSeverity"));
    severity->setCurrentIndex(severity->findData(QStringLiteral("warning")));
    QVERIFY2(counts->text().startsWith(QLatin1String("0 errors")), qPrintable(counts->text()));
    for (int group = 0; group < m_panel->model()->rowCount(); ++group)
        QCOMPARE(m_panel->model()->index(group, 0).data(LintFindingModel::SeverityRole).toString(),
                 QStringLiteral("warning"));

    severity->setCurrentIndex(0);
    auto *code = child<QComboBox>(QStringLiteral("lintCode"));
    code->setCurrentIndex(code->findData(QStringLiteral("H010")));
    QCOMPARE(m_panel->model()->rowCount(), 1);
    QVERIFY2(counts->text().startsWith(QLatin1String("1 error")), qPrintable(counts->text()));

    auto *grouping = child<QComboBox>(QStringLiteral("lintGrouping"));
    grouping->setCurrentIndex(1);
    QCOMPARE(m_panel->model()->grouping(), LintFindingModel::Grouping::ByRow);
    QCOMPARE(m_panel->model()->index(0, 0).data(LintFindingModel::KeyRole).toString(),
             QStringLiteral("BAD_ROW"));
}

void TestLintPanel::exportWritesTheShownFindingsAsJson()
{
    auto *severity = child<QComboBox>(QStringLiteral("lintSeverity"));
    severity->setCurrentIndex(severity->findData(QStringLiteral("error")));
    m_prompter.lintReportPath = m_dir->filePath(QStringLiteral("report.json"));
    QTest::mouseClick(child<QPushButton>(QStringLiteral("lintExport")), Qt::LeftButton);
    QFile file(m_prompter.lintReportPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray report = QJsonDocument::fromJson(file.readAll()).array();
    QCOMPARE(report.size(), m_panel->model()->errorCount());
    QVERIFY(!report.isEmpty());
    for (const QJsonValue &finding : report) {
        QCOMPARE(finding.toObject().value(QStringLiteral("key")).toString(), QStringLiteral("BAD_ROW"));
        QCOMPARE(finding.toObject().value(QStringLiteral("severity")).toString(), QStringLiteral("error"));
    }
    QVERIFY(m_prompter.errors.isEmpty());

    // Cancelling the chooser writes nothing.
    m_prompter.lintReportPath.clear();
    QVERIFY(!m_panel->exportReport());
}

void TestLintPanel::progressShowsWhileLintAllRuns()
{
    auto *progress = child<QProgressBar>(QStringLiteral("lintProgress"));
    auto *cancel = child<QPushButton>(QStringLiteral("lintCancel"));
    QVERIFY(!progress->isVisible());
    emit m_lint->started();
    QVERIFY(progress->isVisible());
    QVERIFY(cancel->isVisible());
    emit m_lint->progress(3, 10);
    QCOMPARE(progress->value(), 3);
    QCOMPARE(progress->maximum(), 10);
    emit m_lint->finished();
    QVERIFY(!progress->isVisible());
}

// Every rule's code and name, with its count, and every key reads whole in the first
// column; a width the user dragged to survives the next re-lint.
void TestLintPanel::columnsFitRuleNamesAndKeys()
{
    QTreeView *tree = m_panel->tree();
    const QFontMetrics metrics = tree->fontMetrics();
    auto fits = [&](const QModelIndex &index) {
        const int depth = index.parent().isValid() ? 2 : 1;
        return metrics.horizontalAdvance(index.data().toString()) + depth * tree->indentation()
               <= tree->columnWidth(LintFindingModel::ItemColumn);
    };
    for (const RuleInfo &rule : Linter::rules()) {
        const QString label = rule.code + u' ' + rule.name + QStringLiteral(" (1,234)");
        QVERIFY2(metrics.horizontalAdvance(label) + tree->indentation() <= tree->columnWidth(0),
                 qPrintable(label));
    }
    for (int group = 0; group < m_panel->model()->rowCount(); ++group) {
        const QModelIndex parent = m_panel->model()->index(group, 0);
        QVERIFY2(fits(parent), qPrintable(parent.data().toString()));
        for (int row = 0; row < m_panel->model()->rowCount(parent); ++row)
            QVERIFY2(fits(m_panel->model()->index(row, 0, parent)), qPrintable(parent.data().toString()));
    }
    QVERIFY(metrics.horizontalAdvance(QStringLiteral("warning"))
            <= tree->columnWidth(LintFindingModel::SeverityColumn));
    QVERIFY(metrics.horizontalAdvance(QStringLiteral("allowed_categories"))
            <= tree->columnWidth(LintFindingModel::FieldColumn));

    tree->setColumnWidth(LintFindingModel::ItemColumn, 90);
    QSignalSpy finished(m_lint.get(), &LintController::finished);
    m_lint->lintAll();
    QVERIFY(finished.wait(5000));
    QCOMPARE(tree->columnWidth(LintFindingModel::ItemColumn), 90);
}

QTEST_MAIN(TestLintPanel)
#include "tst_lintpanel.moc"
