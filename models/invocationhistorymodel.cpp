#include "models/invocationhistorymodel.h"

#include <QBrush>
#include <QColor>

InvocationHistoryModel::InvocationHistoryModel(QObject *parent) : QAbstractTableModel(parent) {}

int InvocationHistoryModel::add(Entry entry)
{
    if (m_entries.size() >= maxEntries) {
        const int last = int(m_entries.size()) - 1;
        beginRemoveRows({}, last, last);
        m_entries.removeLast();
        endRemoveRows();
    }
    beginInsertRows({}, 0, 0);
    m_entries.prepend(std::move(entry));
    endInsertRows();
    return 0;
}

const InvocationHistoryModel::Entry *InvocationHistoryModel::entryAt(int row) const
{
    return row >= 0 && row < m_entries.size() ? &m_entries[row] : nullptr;
}

void InvocationHistoryModel::clear()
{
    if (m_entries.isEmpty())
        return;
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

int InvocationHistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int InvocationHistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InvocationHistoryModel::data(const QModelIndex &index, int role) const
{
    const Entry *entry = index.isValid() ? entryAt(index.row()) : nullptr;
    if (!entry)
        return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TimeColumn: return entry->time.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
        case KeyColumn: return entry->key;
        case BodyColumn: return entry->body;
        case OkColumn: return entry->ok() ? tr("ok") : tr("ERR");
        case DurationColumn: return tr("%1 ms").arg(entry->durationMs);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == TimeColumn)
            return entry->time.toLocalTime().toString(Qt::ISODateWithMs);
        if (index.column() == BodyColumn)
            return entry->body;
        if (index.column() == OkColumn)
            return entry->response.value(QStringLiteral("result")).toString(entry->response.value(QStringLiteral("error")).toString());
    }
    if (role == Qt::ForegroundRole && index.column() == OkColumn)
        return QBrush(entry->ok() ? QColor(0x1b, 0x7a, 0x2f) : QColor(0xb0, 0x1c, 0x1c));
    if (role == Qt::TextAlignmentRole && index.column() == DurationColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole && index.column() == DurationColumn)
        return entry->durationMs;
    return {};
}

QVariant InvocationHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case KeyColumn: return tr("Key");
    case BodyColumn: return tr("Body");
    case OkColumn: return tr("Result");
    case DurationColumn: return tr("Duration");
    default: return {};
    }
}
