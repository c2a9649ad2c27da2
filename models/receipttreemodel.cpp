#include "models/receipttreemodel.h"

#include "models/receiptsummarytable.h"
#include "models/receipttablemodel.h"

#include <QFont>
#include <QHash>

#include <algorithm>

using Field = ReceiptSummaryTable::Field;

ReceiptTreeModel::ReceiptTreeModel(QObject *parent) : QAbstractItemModel(parent) {}

void ReceiptTreeModel::clear()
{
    beginResetModel();
    m_nodes.clear();
    m_roots.clear();
    m_trace.clear();
    m_marked.clear();
    endResetModel();
}

void ReceiptTreeModel::showTraceOf(const ReceiptSummaryTable &table, const QString &invocationId)
{
    const QByteArray wanted = invocationId.toUtf8();
    const int selected =
        table.indexOfInvocation(std::string_view(wanted.constData(), std::size_t(wanted.size())));
    if (selected < 0) {
        clear();
        return;
    }
    beginResetModel();
    m_nodes.clear();
    m_roots.clear();
    m_trace = table.trace(selected);
    m_marked = invocationId;
    const std::string_view trace = table.traceBytes(selected);
    QHash<QString, int> nodeOfId;
    for (int i = 0; i < table.size(); ++i) {
        if (table.traceBytes(i) != trace)
            continue;
        Node node;
        node.invocationId = table.invocationId(i);
        node.parentId = table.parent(i);
        node.key = table.textOf(i, Field::Key);
        node.runner = table.textOf(i, Field::Runner);
        node.status = table.textOf(i, Field::Status);
        node.durationMs = table.durationMs(i);
        nodeOfId.insert(node.invocationId, int(m_nodes.size()));
        m_nodes.push_back(std::move(node));
    }
    // Children in seq order, which is the order they finished in.
    for (int n = 0; n < int(m_nodes.size()); ++n) {
        Node &node = m_nodes[std::size_t(n)];
        const int parent = node.parentId.isEmpty() ? -1 : nodeOfId.value(node.parentId, -1);
        // A receipt naming itself as parent would hang the tree from nothing: keep it on top.
        node.parent = parent == n ? -1 : parent;
    }
    // Parent links that loop never reach the top; the first of each loop is lifted there
    // so every receipt of the trace is shown exactly once.
    std::vector<char> reachesTop(m_nodes.size(), 0);
    for (int n = 0; n < int(m_nodes.size()); ++n) {
        std::vector<int> path;
        int at = n;
        while (at >= 0 && !reachesTop[std::size_t(at)]
               && std::find(path.begin(), path.end(), at) == path.end()) {
            path.push_back(at);
            at = m_nodes[std::size_t(at)].parent;
        }
        if (at >= 0 && !reachesTop[std::size_t(at)])
            m_nodes[std::size_t(at)].parent = -1; // `at` closes a loop
        for (int p : path)
            reachesTop[std::size_t(p)] = 1;
    }
    for (int n = 0; n < int(m_nodes.size()); ++n) {
        Node &node = m_nodes[std::size_t(n)];
        std::vector<int> &siblings = node.parent < 0 ? m_roots : m_nodes[std::size_t(node.parent)].children;
        node.row = int(siblings.size());
        siblings.push_back(n);
    }
    endResetModel();
}

QModelIndex ReceiptTreeModel::indexOfInvocation(const QString &invocationId) const
{
    for (std::size_t n = 0; n < m_nodes.size(); ++n) {
        if (m_nodes[n].invocationId == invocationId)
            return createIndex(m_nodes[n].row, 0, quintptr(n));
    }
    return {};
}

const ReceiptTreeModel::Node *ReceiptTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? &m_nodes[std::size_t(index.internalId())] : nullptr;
}

const std::vector<int> &ReceiptTreeModel::childrenOf(const QModelIndex &parent) const
{
    const Node *node = nodeOf(parent);
    return node ? node->children : m_roots;
}

QModelIndex ReceiptTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, quintptr(childrenOf(parent)[std::size_t(row)]));
}

QModelIndex ReceiptTreeModel::parent(const QModelIndex &child) const
{
    const Node *node = nodeOf(child);
    if (!node || node->parent < 0)
        return {};
    return createIndex(m_nodes[std::size_t(node->parent)].row, 0, quintptr(node->parent));
}

int ReceiptTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(childrenOf(parent).size());
}

int ReceiptTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant ReceiptTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node &node = *nodeOf(index);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case InvocationColumn:
            return node.invocationId;
        case KeyColumn:
            return node.key;
        case RunnerColumn:
            return node.runner;
        case DurationColumn:
            return ReceiptTableModel::durationText(node.durationMs);
        case StatusColumn:
            return node.status;
        }
        break;
    case Qt::FontRole:
        if (node.invocationId == m_marked) {
            QFont font;
            font.setBold(true);
            return font;
        }
        break;
    case InvocationIdRole:
        return node.invocationId;
    }
    return {};
}

QVariant ReceiptTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractItemModel::headerData(section, orientation, role);
    switch (section) {
    case InvocationColumn:
        return tr("Invocation");
    case KeyColumn:
        return tr("Key");
    case RunnerColumn:
        return tr("Runner");
    case DurationColumn:
        return tr("Duration");
    case StatusColumn:
        return tr("Status");
    }
    return {};
}
