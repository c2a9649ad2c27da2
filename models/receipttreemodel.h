#pragma once

#include <QAbstractItemModel>
#include <QString>

#include <vector>

class ReceiptSummaryTable;

// The receipts of one trace as a tree by their `parent` column: a flow's receipt above
// the receipts of the calls it made, and so on down. The nodes are copied out of the
// table, so the tree stays valid while the table reloads.
class ReceiptTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReceiptTreeModel)

public:
    enum Column { InvocationColumn, KeyColumn, RunnerColumn, DurationColumn, StatusColumn, ColumnCount };
    enum Role { InvocationIdRole = Qt::UserRole + 1 };

    explicit ReceiptTreeModel(QObject *parent = nullptr);

    // Shows the trace of `invocationId` with that receipt marked; empty when `table` does
    // not hold it. A receipt whose parent is not in the trace is a root of its own.
    void showTraceOf(const ReceiptSummaryTable &table, const QString &invocationId);
    void clear();

    QString trace() const { return m_trace; }
    QString marked() const { return m_marked; }
    QModelIndex indexOfInvocation(const QString &invocationId) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node
    {
        QString invocationId;
        QString parentId;
        QString key;
        QString runner;
        QString status;
        qint64 durationMs = 0;
        int parent = -1; // node index; -1 at the top
        int row = 0; // among its siblings
        std::vector<int> children;
    };

    const Node *nodeOf(const QModelIndex &index) const;
    const std::vector<int> &childrenOf(const QModelIndex &parent) const;

    std::vector<Node> m_nodes;
    std::vector<int> m_roots;
    QString m_trace;
    QString m_marked;
};
