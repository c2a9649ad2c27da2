#include "models/rowhistorymodel.h"

#include "dispatch/receipts/directoryhistory.h"

RowHistoryModel::RowHistoryModel(QObject *parent) : QAbstractTableModel(parent) {}

void RowHistoryModel::setHistory(std::shared_ptr<const DirectoryHistory> history)
{
    m_history = std::move(history);
    reload();
}

void RowHistoryModel::setKey(const QString &key)
{
    m_key = key;
    reload();
}

StoreError RowHistoryModel::reload()
{
    QList<LogEvent> events;
    StoreError error;
    if (m_history && !m_key.isEmpty()) {
        StoreResult<QList<LogEvent>> read = m_history->events(m_key);
        if (read.ok())
            events = std::move(read.value());
        else
            error = read.error();
    }
    beginResetModel();
    m_events = std::move(events);
    endResetModel();
    return error;
}

const LogEvent *RowHistoryModel::eventAt(int row) const
{
    return row >= 0 && row < m_events.size() ? &m_events.at(row) : nullptr;
}

int RowHistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int RowHistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RowHistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LogEvent &event = m_events.at(index.row());
    if (role == Qt::ToolTipRole)
        return tr("Event #%1\nhash %2").arg(event.seq).arg(event.hash);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return event.at;
    case ActionColumn:
        if (event.action == QLatin1String("restore") && event.detail.contains(QStringLiteral("restores_seq")))
            return tr("restore of #%1").arg(event.detail.value(QStringLiteral("restores_seq")).toInteger());
        return event.action;
    case ActorColumn:
        return event.actor;
    }
    return {};
}

QVariant RowHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time (UTC)");
    case ActionColumn:
        return tr("Action");
    case ActorColumn:
        return tr("Actor");
    }
    return {};
}
