#pragma once

#include <QAbstractListModel>
#include <QList>
#include <QPair>

class SummaryTable;

// The category list beside the table: "All categories" first, then every category with
// its row count (rows without one under "(no category)").
class CategoryCountModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CategoryCountModel)

public:
    enum Role {
        CategoryRole = Qt::UserRole + 1, // QString: the category ("" for none)
        IsAllRole, // bool: the "All categories" entry
        CountRole, // int
    };

    explicit CategoryCountModel(QObject *parent = nullptr);

    void rebuild(const SummaryTable &table);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    struct Entry
    {
        QString category;
        int count = 0;
        bool isAll = false;
    };
    QList<Entry> m_entries;
};
