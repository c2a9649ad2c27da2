#include "models/lintfindingmodel.h"

#include "dispatch/core/poolrelease.h"
#include "models/lintstate.h"

#include <QSet>
#include <QTimer>

#include <algorithm>
#include <tuple>
#include <utility>

namespace {

// Internal ids: 0 for a group, group number + 1 for a finding under it.
constexpr quintptr kGroupId = 0;

} // namespace

LintFindingModel::LintFindingModel(QObject *parent) : QAbstractItemModel(parent) {}

void LintFindingModel::setState(LintState *state)
{
    if (m_state)
        disconnect(m_state, nullptr, this, nullptr);
    m_state = state;
    if (m_state) {
        connect(m_state, &LintState::reset, this, &LintFindingModel::rebuild);
        // Typing re-lints one row at a time; a burst of them becomes one rebuild.
        connect(m_state, &LintState::rowChanged, this, &LintFindingModel::scheduleRebuild);
    }
    rebuild();
}

void LintFindingModel::setGrouping(Grouping grouping)
{
    if (grouping == m_grouping)
        return;
    m_grouping = grouping;
    rebuild();
}

void LintFindingModel::setSeverityFilter(const QString &severity)
{
    if (severity == m_severity)
        return;
    m_severity = severity;
    rebuild();
}

void LintFindingModel::setCodeFilter(const QString &code)
{
    if (code == m_code)
        return;
    m_code = code;
    rebuild();
}

void LintFindingModel::scheduleRebuild()
{
    if (m_rebuildPending)
        return;
    m_rebuildPending = true;
    QTimer::singleShot(0, this, &LintFindingModel::rebuild);
}

void LintFindingModel::rebuild()
{
    m_rebuildPending = false;
    beginResetModel();
    m_groups.clear();
    // The state may have let go of the old table already: freeing it is the pool's work.
    releaseOnPool(std::exchange(m_findings, m_state ? m_state->all() : QHash<QString, QList<LintFinding>>()));
    m_errors = m_warnings = 0;
    QSet<QString> rows;
    if (m_state) {
        QHash<QString, std::size_t> groupOf;
        for (auto it = m_findings.cbegin(); it != m_findings.cend(); ++it) {
            for (const LintFinding &finding : it.value()) {
                if ((!m_severity.isEmpty() && finding.severity != m_severity)
                    || (!m_code.isEmpty() && finding.code != m_code))
                    continue;
                const bool byRule = m_grouping == Grouping::ByRule;
                const QString id = byRule ? finding.code : finding.key;
                auto found = groupOf.constFind(id);
                if (found == groupOf.constEnd()) {
                    found = groupOf.insert(id, m_groups.size());
                    m_groups.push_back(
                        {id, byRule ? finding.code + u' ' + finding.name : finding.key, {}, 0});
                }
                Group &group = m_groups[*found];
                group.findings.push_back(&finding);
                (finding.isError() ? m_errors : m_warnings) += 1;
                group.errors += finding.isError() ? 1 : 0;
                rows.insert(finding.key);
            }
        }
    }
    // A stable order whatever the hash did: codes and keys sort as text, and so do findings.
    std::sort(m_groups.begin(), m_groups.end(), [](const Group &a, const Group &b) { return a.id < b.id; });
    for (Group &group : m_groups) {
        std::sort(group.findings.begin(), group.findings.end(),
                  [](const LintFinding *a, const LintFinding *b) {
                      return std::tie(a->key, a->code, a->field, a->message)
                             < std::tie(b->key, b->code, b->field, b->message);
                  });
    }
    m_rows = int(rows.size());
    endResetModel();
    emit countsChanged();
}

QList<LintFinding> LintFindingModel::shownFindings() const
{
    QList<LintFinding> findings;
    for (const Group &group : m_groups) {
        for (const LintFinding *finding : group.findings)
            findings.append(*finding);
    }
    return findings;
}

QModelIndex LintFindingModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kGroupId);
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex LintFindingModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kGroupId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kGroupId);
}

int LintFindingModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_groups.size());
    if (parent.internalId() != kGroupId || parent.column() != 0)
        return 0;
    return int(m_groups[std::size_t(parent.row())].findings.size());
}

int LintFindingModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant LintFindingModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == kGroupId)
        return groupData(m_groups[std::size_t(index.row())], index.column(), role);
    const Group &group = m_groups[std::size_t(index.internalId() - 1)];
    return findingData(*group.findings[std::size_t(index.row())], index.column(), role);
}

QVariant LintFindingModel::groupData(const Group &group, int column, int role) const
{
    const int count = int(group.findings.size());
    switch (role) {
    case Qt::DisplayRole:
        if (column == ItemColumn)
            return QStringLiteral("%1 (%2)").arg(group.label).arg(count);
        if (column == SeverityColumn && m_grouping == Grouping::ByRule)
            return group.findings.front()->severity;
        if (column == MessageColumn && m_grouping == Grouping::ByRow)
            return tr("errors: %1, warnings: %2").arg(group.errors).arg(count - group.errors);
        break;
    case IsGroupRole:
        return true;
    case CountRole:
        return count;
    case CodeRole:
        return m_grouping == Grouping::ByRule ? group.id : QString();
    case KeyRole:
        return m_grouping == Grouping::ByRow ? group.id : QString();
    case SeverityRole:
        return group.errors > 0 ? QStringLiteral("error") : QStringLiteral("warning");
    }
    return {};
}

QVariant LintFindingModel::findingData(const LintFinding &finding, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case ItemColumn:
            return m_grouping == Grouping::ByRule ? finding.key : finding.code + u' ' + finding.name;
        case SeverityColumn:
            return finding.severity;
        case FieldColumn:
            return finding.field;
        case MessageColumn:
            return finding.message;
        }
        break;
    case Qt::ToolTipRole:
        return finding.message;
    case IsGroupRole:
        return false;
    case KeyRole:
        return finding.key;
    case FieldRole:
        return finding.field;
    case CodeRole:
        return finding.code;
    case SeverityRole:
        return finding.severity;
    }
    return {};
}

QVariant LintFindingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ItemColumn:
        return m_grouping == Grouping::ByRule ? tr("Rule / row") : tr("Row / rule");
    case SeverityColumn:
        return tr("Severity");
    case FieldColumn:
        return tr("Field");
    case MessageColumn:
        return tr("Message");
    }
    return {};
}
