#include "views/lint/lintpanel.h"

#include "dispatch/lint/linter.h"
#include "dispatch/lint/lintreport.h"
#include "dispatch/row/rowschema.h"
#include "models/lintcontroller.h"
#include "models/lintfindingmodel.h"
#include "models/lintstate.h"
#include "views/common/prompter.h"
#include "views/common/rowstext.h"

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace {

// The app ships no English translation, so "%n error(s)" would reach the user verbatim.
QString counted(int n, const QString &one, const QString &many)
{
    return QLocale().toString(n) + u' ' + (n == 1 ? one : many);
}

QString groupId(const QModelIndex &group)
{
    const QString code = group.data(LintFindingModel::CodeRole).toString();
    return code.isEmpty() ? group.data(LintFindingModel::KeyRole).toString() : code;
}

} // namespace

LintPanel::LintPanel(Prompter &prompter, QWidget *parent)
    : QWidget(parent), m_prompter(prompter), m_model(new LintFindingModel(this)),
      m_grouping(new QComboBox(this)), m_severity(new QComboBox(this)), m_code(new QComboBox(this)),
      m_lintAll(new QPushButton(tr("&Lint All"), this)), m_export(new QPushButton(tr("Export…"), this)),
      m_counts(new QLabel(this)), m_progress(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_tree(new QTreeView(this))
{
    m_grouping->setObjectName(QStringLiteral("lintGrouping"));
    m_grouping->addItem(tr("By rule"), int(LintFindingModel::Grouping::ByRule));
    m_grouping->addItem(tr("By row"), int(LintFindingModel::Grouping::ByRow));
    m_severity->setObjectName(QStringLiteral("lintSeverity"));
    m_severity->addItem(tr("All severities"), QString());
    m_severity->addItem(tr("Errors"), QStringLiteral("error"));
    m_severity->addItem(tr("Warnings"), QStringLiteral("warning"));
    m_code->setObjectName(QStringLiteral("lintCode"));
    m_code->addItem(tr("All rules"), QString());
    for (const RuleInfo &rule : Linter::rules()) {
        m_code->addItem(rule.code + u' ' + rule.name, rule.code);
        m_code->setItemData(m_code->count() - 1, rule.summary, Qt::ToolTipRole);
    }
    m_counts->setObjectName(QStringLiteral("lintCounts"));
    m_progress->setObjectName(QStringLiteral("lintProgress"));
    m_cancel->setObjectName(QStringLiteral("lintCancel"));
    m_export->setObjectName(QStringLiteral("lintExport"));
    m_lintAll->setObjectName(QStringLiteral("lintAll"));
    m_progress->setMaximumWidth(200);
    m_progress->setTextVisible(true);

    m_tree->setModel(m_model);
    m_tree->setObjectName(QStringLiteral("lintFindings"));
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->header()->setStretchLastSection(true);
    // The widest text each column can hold, measured once: a severity and a column name.
    const QFontMetrics metrics = m_tree->fontMetrics();
    const int padding = 3 * metrics.averageCharWidth();
    m_tree->setColumnWidth(LintFindingModel::SeverityColumn,
                           metrics.horizontalAdvance(tr("warning")) + padding);
    int field = 0;
    for (const QString &column : RowSchema::columns())
        field = std::max(field, metrics.horizontalAdvance(column));
    m_tree->setColumnWidth(LintFindingModel::FieldColumn, field + padding);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_grouping);
    bar->addWidget(m_severity);
    bar->addWidget(m_code);
    bar->addWidget(m_counts, 1);
    bar->addWidget(m_progress);
    bar->addWidget(m_cancel);
    bar->addWidget(m_lintAll);
    bar->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_tree, 1);

    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] {
        m_expanded.clear();
        m_model->setGrouping(LintFindingModel::Grouping(m_grouping->currentData().toInt()));
    });
    connect(m_severity, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setSeverityFilter(m_severity->currentData().toString()); });
    connect(m_code, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setCodeFilter(m_code->currentData().toString()); });
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, &LintPanel::rememberExpanded);
    connect(m_model, &QAbstractItemModel::modelReset, this, &LintPanel::restoreExpanded);
    connect(m_model, &QAbstractItemModel::modelReset, this, &LintPanel::fitColumns);
    connect(m_model, &LintFindingModel::countsChanged, this, &LintPanel::showCounts);
    connect(m_tree, &QTreeView::activated, this, &LintPanel::activate);
    connect(m_tree, &QTreeView::clicked, this, &LintPanel::activate);
    connect(m_export, &QPushButton::clicked, this, &LintPanel::exportReport);
    connect(m_lintAll, &QPushButton::clicked, this, [this] {
        if (m_controller)
            m_controller->lintAll();
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_controller)
            m_controller->cancel();
    });
    showRunning(false);
    showCounts();
}

void LintPanel::setController(LintController *controller)
{
    if (m_controller)
        disconnect(m_controller, nullptr, this, nullptr);
    m_controller = controller;
    m_model->setState(m_controller ? m_controller->state() : nullptr);
    setEnabled(m_controller);
    if (!m_controller)
        return;
    connect(m_controller, &LintController::started, this, [this] { showRunning(true); });
    connect(m_controller, &LintController::finished, this, [this] { showRunning(false); });
    connect(m_controller, &LintController::cancelled, this, [this] { showRunning(false); });
    connect(m_controller, &LintController::progress, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    showRunning(m_controller->isRunning());
}

void LintPanel::showRunning(bool running)
{
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    m_lintAll->setEnabled(!running);
    if (running)
        m_progress->setRange(0, 0); // busy until the first progress report
}

void LintPanel::showCounts()
{
    m_counts->setText(counted(m_model->errorCount(), tr("error"), tr("errors")) + QStringLiteral(" · ")
                      + counted(m_model->warningCount(), tr("warning"), tr("warnings"))
                      + QStringLiteral(" · ")
                      + tr("in %1").arg(RowsText::rows(m_model->rowCountWithFindings())));
    m_export->setEnabled(m_model->rowCount() > 0);
}

void LintPanel::rememberExpanded()
{
    m_expanded.clear();
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex group = m_model->index(row, 0);
        if (m_tree->isExpanded(group))
            m_expanded.append(groupId(group));
    }
}

void LintPanel::restoreExpanded()
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex group = m_model->index(row, 0);
        if (m_expanded.contains(groupId(group)))
            m_tree->expand(group);
    }
}

// Wide enough for every rule's "H061 includes_cycle (1,234)" and the longest key with
// findings, so neither is cut; a key near the 64-character limit is cut, the message
// needs the room more.
int LintPanel::itemColumnWidth() const
{
    const QFontMetrics metrics = m_tree->fontMetrics();
    const QString count = QStringLiteral(" (%1)").arg(QLocale().toString(99999));
    int widest = 0;
    for (const RuleInfo &rule : Linter::rules())
        widest = std::max(widest, metrics.horizontalAdvance(rule.code + u' ' + rule.name + count));
    // Keys by length first: measuring every one of 100,000 keys would cost a frame.
    QString longest;
    if (m_controller) {
        for (auto it = m_controller->state()->all().cbegin(); it != m_controller->state()->all().cend();
             ++it) {
            if (it.key().size() > longest.size())
                longest = it.key();
        }
    }
    widest = std::max(widest, metrics.horizontalAdvance(longest + count));
    const int decoration = 2 * m_tree->indentation() + 2 * metrics.averageCharWidth();
    return std::min(widest + decoration, 48 * metrics.averageCharWidth());
}

void LintPanel::fitColumns()
{
    const int width = itemColumnWidth();
    // A width the user dragged to stays theirs.
    const int current = m_tree->columnWidth(LintFindingModel::ItemColumn);
    if (m_fittedItemWidth != 0 && current != m_fittedItemWidth)
        return;
    m_tree->setColumnWidth(LintFindingModel::ItemColumn, width);
    m_fittedItemWidth = width;
}

void LintPanel::activate(const QModelIndex &index)
{
    if (!index.isValid() || index.data(LintFindingModel::IsGroupRole).toBool())
        return;
    emit findingActivated(index.data(LintFindingModel::KeyRole).toString(),
                          index.data(LintFindingModel::FieldRole).toString());
}

bool LintPanel::exportReport()
{
    const QString near =
        m_lastExport.isEmpty() ? QDir::home().filePath(QStringLiteral("lint-report.json")) : m_lastExport;
    const QString path = m_prompter.chooseLintReportPath(near);
    if (path.isEmpty())
        return false;
    const QList<LintFinding> findings = m_model->shownFindings();
    const bool csv = path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(csv ? LintReport::toCsv(findings) : LintReport::toJson(findings)) < 0
        || !file.commit()) {
        m_prompter.showError(tr("Export Lint Report"),
                             tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    m_lastExport = path;
    return true;
}
