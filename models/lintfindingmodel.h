#pragma once

#include "dispatch/lint/rules/lintfinding.h"

#include <QAbstractItemModel>
#include <QPointer>

#include <vector>

class LintState;

// Every finding of a LintState as a two-level tree: groups (a rule, or a row) and their
// findings, filtered by severity and code. A group's label carries its count, so the
// panel shows the counts per rule without counting again.
class LintFindingModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LintFindingModel)

public:
    enum Column { ItemColumn, SeverityColumn, FieldColumn, MessageColumn, ColumnCount };
    enum Role {
        KeyRole = Qt::UserRole + 1, // a finding's row key
        FieldRole,
        CodeRole,
        SeverityRole,
        IsGroupRole,
        CountRole, // a group's number of findings
    };
    enum class Grouping { ByRule, ByRow };

    explicit LintFindingModel(QObject *parent = nullptr);

    void setState(LintState *state);
    void setGrouping(Grouping grouping);
    Grouping grouping() const { return m_grouping; }
    // Empty: every severity / every code.
    void setSeverityFilter(const QString &severity);
    void setCodeFilter(const QString &code);

    // The findings shown (after the filters), in tree order: what an export writes.
    QList<LintFinding> shownFindings() const;
    int errorCount() const { return m_errors; }
    int warningCount() const { return m_warnings; }
    int rowCountWithFindings() const { return m_rows; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    // After every rebuild: the counts may have moved.
    void countsChanged();

private:
    struct Group
    {
        QString id; // the code or the key
        QString label; // "H010 doc_what" or the key
        // Into m_findings: a directory of 100,000 rows has tens of thousands of findings,
        // and a copy of each would be as large again as the lists they are in.
        std::vector<const LintFinding *> findings;
        int errors = 0;
    };

    void rebuild();
    void scheduleRebuild();
    QVariant groupData(const Group &group, int column, int role) const;
    QVariant findingData(const LintFinding &finding, int column, int role) const;

    QPointer<LintState> m_state;
    // The state's findings as of the last rebuild, shared rather than copied: the state's
    // next change detaches from it, so the groups' pointers hold until the next rebuild.
    QHash<QString, QList<LintFinding>> m_findings;
    Grouping m_grouping = Grouping::ByRule;
    QString m_severity;
    QString m_code;
    std::vector<Group> m_groups;
    int m_errors = 0;
    int m_warnings = 0;
    int m_rows = 0;
    bool m_rebuildPending = false;
};
