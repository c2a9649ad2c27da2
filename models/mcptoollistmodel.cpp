#include "models/mcptoollistmodel.h"

#include "dispatch/mcp/mcptoolcatalog.h"
#include "dispatch/store/directorystore.h"

#include <QLocale>
#include <QtConcurrent/QtConcurrentRun>

McpToolListModel::McpToolListModel(QObject *parent) : QAbstractTableModel(parent)
{
    connect(&m_watcher, &QFutureWatcherBase::finished, this, &McpToolListModel::install);
}

McpToolListModel::~McpToolListModel()
{
    m_watcher.waitForFinished();
}

void McpToolListModel::load(std::shared_ptr<const DirectoryStore> store, McpOptions::Projection projection)
{
    // A load still running is left to finish unwatched: its answer is for an older question.
    m_watcher.setFuture(QtConcurrent::run([store = std::move(store), projection]() {
        McpOptions options;
        options.projection = projection;
        McpToolCatalog catalog(store, nullptr, options);
        const StoreResult<QJsonArray> tools = catalog.tools();
        Built built;
        if (!tools.ok()) {
            built.error = tools.error().message;
            return built;
        }
        built.tools = tools.value();
        built.cost = McpCost::of(built.tools);
        return built;
    }));
}

void McpToolListModel::install()
{
    Built built = m_watcher.result();
    if (!built.error.isEmpty()) {
        emit loaded(built.error);
        return;
    }
    beginResetModel();
    m_tools = std::move(built.tools);
    m_cost = std::move(built.cost);
    endResetModel();
    emit loaded(QString());
}

QJsonObject McpToolListModel::toolAt(int row) const
{
    return row >= 0 && row < m_tools.size() ? m_tools.at(row).toObject() : QJsonObject();
}

int McpToolListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_cost.tools.size());
}

int McpToolListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant McpToolListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_cost.tools.size())
        return {};
    const McpCost::Tool &tool = m_cost.tools.at(index.row());
    if (role == SortRole) {
        switch (index.column()) {
        case NameColumn:
            return tool.name;
        case BytesColumn:
            return tool.bytes;
        case TokensColumn:
            return tool.tokens;
        }
    }
    if (role == Qt::DisplayRole) {
        const QLocale locale;
        switch (index.column()) {
        case NameColumn:
            return tool.name;
        case BytesColumn:
            return locale.toString(tool.bytes);
        case TokensColumn:
            return locale.toString(tool.tokens);
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant McpToolListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Tool");
    case BytesColumn:
        return tr("Bytes");
    case TokensColumn:
        return tr("~Tokens");
    }
    return {};
}
