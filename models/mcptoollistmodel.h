#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/mcp/mcpcost.h"
#include "dispatch/mcp/mcpoptions.h"

#include <QAbstractTableModel>
#include <QFutureWatcher>
#include <QJsonArray>

#include <memory>

class DirectoryStore;

// The tools an MCP client is handed for a projection of the directory (exactly what
// capdeskctl mcp and serve's /mcp list), one per row with its size in bytes and estimated
// tokens. Built on a worker: 100,000 rows take seconds, which the GUI thread never waits.
class McpToolListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpToolListModel)

public:
    enum Column { NameColumn, BytesColumn, TokensColumn, ColumnCount };
    // The number a column sorts by (Qt::DisplayRole holds the formatted text).
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit McpToolListModel(QObject *parent = nullptr);
    ~McpToolListModel() override;

    void load(std::shared_ptr<const DirectoryStore> store, McpOptions::Projection projection);
    const McpCost &cost() const { return m_cost; }
    QJsonObject toolAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    // A load completed; `error` is empty on success.
    void loaded(const QString &error);

private:
    struct Built
    {
        QJsonArray tools;
        McpCost cost;
        QString error;
    };
    void install();

    QFutureWatcher<Built> m_watcher;
    QJsonArray m_tools;
    McpCost m_cost;
};
