#pragma once

#include <QPointer>
#include <QWidget>

class LintController;
class LintFindingModel;
class Prompter;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTreeView;

// Every hygiene finding of the open directory: grouped by rule or by row, filtered by
// severity and code, with counts; a progress bar and Cancel while lint-all runs; the
// report exported as JSON or CSV. Activating a finding asks the window to show its row
// and field (findingActivated), since selecting rows is the window's business.
class LintPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LintPanel)

public:
    explicit LintPanel(Prompter &prompter, QWidget *parent = nullptr);

    void setController(LintController *controller);
    LintFindingModel *model() const { return m_model; }
    QTreeView *tree() const { return m_tree; }

    // Writes the shown findings where the prompter says; false when cancelled or failed
    // (the prompter showed why).
    bool exportReport();

signals:
    void findingActivated(const QString &key, const QString &field);

private:
    void showCounts();
    void showRunning(bool running);
    void activate(const QModelIndex &index);
    void rememberExpanded();
    void restoreExpanded();
    void fitColumns();
    int itemColumnWidth() const;

    Prompter &m_prompter;
    QPointer<LintController> m_controller;
    LintFindingModel *m_model;
    QComboBox *m_grouping;
    QComboBox *m_severity;
    QComboBox *m_code;
    QPushButton *m_lintAll;
    QPushButton *m_export;
    QLabel *m_counts;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QTreeView *m_tree;
    QStringList m_expanded; // group ids open before a rebuild
    QString m_lastExport;
    int m_fittedItemWidth = 0; // the width fitColumns() last gave the first column
};
