#include "models/remotecallmodel.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

RemoteCallModel::RemoteCallModel(QObject *parent) : QAbstractTableModel(parent) {}

void RemoteCallModel::add(Entry entry)
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
}

void RemoteCallModel::setConfirmation(const QString &invocationId, const QString &confirmation)
{
    if (invocationId.isEmpty())
        return;
    for (int row = 0; row < m_entries.size(); ++row) {
        if (m_entries.at(row).invocationId != invocationId)
            continue;
        m_entries[row].confirmation = confirmation;
        emit dataChanged(index(row, ConfirmColumn), index(row, ConfirmColumn));
    }
}

const RemoteCallModel::Entry *RemoteCallModel::entryAt(int row) const
{
    return row >= 0 && row < m_entries.size() ? &m_entries.at(row) : nullptr;
}

void RemoteCallModel::clear()
{
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

int RemoteCallModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int RemoteCallModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RemoteCallModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry &entry = m_entries.at(index.row());
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case TimeColumn:
            return QLocale().toString(entry.time.toLocalTime().time(), QLocale::LongFormat);
        case KeyColumn:
            return entry.key;
        case BodyColumn:
            return entry.body;
        case ResultColumn:
            // One line in the table; the whole output in the tooltip.
            return role == Qt::ToolTipRole ? entry.result : entry.result.section(u'\n', 0, 0);
        case InvocationColumn:
            return entry.invocationId.isEmpty() ? tr("(none)") : entry.invocationId;
        case ConfirmColumn:
            if (entry.invocationId.isEmpty())
                return tr("nothing to confirm");
            return entry.confirmation.isEmpty() ? tr("asking the server…") : entry.confirmation;
        }
    }
    if (role == Qt::ForegroundRole && index.column() == ResultColumn && !entry.ok)
        return QBrush(QColor(0xb3, 0x26, 0x1e));
    return {};
}

QVariant RemoteCallModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case KeyColumn:
        return tr("Key");
    case BodyColumn:
        return tr("Body");
    case ResultColumn:
        return tr("Result");
    case InvocationColumn:
        return tr("Invocation");
    case ConfirmColumn:
        return tr("Server confirms");
    }
    return {};
}
