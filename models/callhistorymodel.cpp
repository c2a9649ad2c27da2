#include "models/callhistorymodel.h"

#include <QBrush>
#include <QColor>

#include <utility>

QString CallHistoryModel::Entry::invocationId() const
{
    return response.value(QStringLiteral("proof"))
        .toObject()
        .value(QStringLiteral("invocation_id"))
        .toString();
}

QString CallHistoryModel::Entry::resultText() const
{
    if (!response.value(QStringLiteral("ran")).toBool(true))
        return CallHistoryModel::tr("refused: %1").arg(response.value(QStringLiteral("error")).toString());
    return response.value(QStringLiteral("result"))
        .toString(response.value(QStringLiteral("error")).toString());
}

CallHistoryModel::CallHistoryModel(QObject *parent) : QAbstractTableModel(parent) {}

int CallHistoryModel::add(Entry entry)
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

void CallHistoryModel::setConfirmation(const QString &invocationId, const QString &confirmation)
{
    if (invocationId.isEmpty())
        return;
    for (int row = 0; row < m_entries.size(); ++row) {
        if (m_entries.at(row).invocationId() != invocationId)
            continue;
        m_entries[row].confirmation = confirmation;
        emit dataChanged(index(row, ConfirmColumn), index(row, ConfirmColumn));
    }
}

const CallHistoryModel::Entry *CallHistoryModel::entryAt(int row) const
{
    return row >= 0 && row < m_entries.size() ? &m_entries[row] : nullptr;
}

void CallHistoryModel::setEntries(QList<Entry> entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    if (m_entries.size() > maxEntries)
        m_entries.resize(maxEntries);
    endResetModel();
}

void CallHistoryModel::clear()
{
    if (m_entries.isEmpty())
        return;
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

int CallHistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int CallHistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CallHistoryModel::data(const QModelIndex &index, int role) const
{
    const Entry *entry = index.isValid() ? entryAt(index.row()) : nullptr;
    if (!entry)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(*entry, index.column());
    case Qt::ToolTipRole:
        return toolTip(*entry, index.column());
    case Qt::ForegroundRole:
        if (index.column() == OkColumn)
            return QBrush(entry->ok() ? QColor(0x1b, 0x7a, 0x2f) : QColor(0xb0, 0x1c, 0x1c));
        if (index.column() == ResultColumn && !entry->ok())
            return QBrush(QColor(0xb3, 0x26, 0x1e));
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == DurationColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                                : QVariant();
    case Qt::UserRole:
        return index.column() == DurationColumn ? QVariant(entry->durationMs) : QVariant();
    default:
        return {};
    }
}

QVariant CallHistoryModel::display(const Entry &entry, int column) const
{
    switch (column) {
    case TimeColumn:
        return entry.time.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
    case KeyColumn:
        return entry.key;
    case BodyColumn:
        return entry.body;
    case OkColumn:
        return entry.ok() ? tr("ok") : tr("ERR");
    case DurationColumn:
        return tr("%1 ms").arg(entry.durationMs);
    case ResultColumn:
        // One line in the table; the whole output in the tooltip.
        return entry.resultText().section(u'\n', 0, 0);
    case InvocationColumn:
        return entry.invocationId().isEmpty() ? tr("(none)") : entry.invocationId();
    case ConfirmColumn:
        if (entry.invocationId().isEmpty())
            return tr("nothing to confirm");
        return entry.confirmation.isEmpty() ? tr("asking the server…") : entry.confirmation;
    default:
        return {};
    }
}

QVariant CallHistoryModel::toolTip(const Entry &entry, int column) const
{
    switch (column) {
    case TimeColumn:
        return entry.time.toLocalTime().toString(Qt::ISODateWithMs);
    case OkColumn:
    case ResultColumn:
        return entry.resultText();
    case KeyColumn:
    case BodyColumn:
    case InvocationColumn:
    case ConfirmColumn:
        return display(entry, column);
    default:
        return {};
    }
}

QVariant CallHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
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
    case OkColumn:
        return tr("Result");
    case DurationColumn:
        return tr("Duration");
    case ResultColumn:
        return tr("Output");
    case InvocationColumn:
        return tr("Invocation");
    case ConfirmColumn:
        return tr("Server confirms");
    default:
        return {};
    }
}
