#include "models/categorycountmodel.h"

#include "models/summarytable.h"

#include <map>

CategoryCountModel::CategoryCountModel(QObject *parent) : QAbstractListModel(parent) {}

void CategoryCountModel::rebuild(const SummaryTable &table)
{
    // Counted on UTF-8 bytes: 100,000 rows share a few dozen categories.
    std::map<std::string_view, int> counts;
    for (int i = 0; i < table.size(); ++i)
        ++counts[table.categoryBytes(i)];

    QList<Entry> entries;
    entries.append({QString(), table.size(), true});
    for (const auto &[category, count] : counts)
        entries.append({QString::fromUtf8(category.data(), qsizetype(category.size())), count, false});

    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
}

int CategoryCountModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant CategoryCountModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry &entry = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole: {
        const QString name = entry.isAll                ? tr("All categories")
                             : entry.category.isEmpty() ? tr("(no category)")
                                                        : entry.category;
        return QStringLiteral("%1  (%2)").arg(name, QLocale().toString(entry.count));
    }
    case CategoryRole:
        return entry.category;
    case IsAllRole:
        return entry.isAll;
    case CountRole:
        return entry.count;
    }
    return {};
}
