#pragma once

#include "secretinventory.h"

#include <QAbstractTableModel>

// The Secrets dialog's table: one row per secret NAME the directory refers to, with how
// many rows use it and where it has a value. It only ever holds names and yes/no answers.
class SecretListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretListModel)

public:
    enum Column { NameColumn, RowsColumn, FormsColumn, EnvironmentColumn, KeychainColumn, ColumnCount };

    explicit SecretListModel(QObject *parent = nullptr);

    void setInventory(SecretInventory inventory);
    const SecretInventory &inventory() const { return m_inventory; }
    // Null when `row` is out of range.
    const SecretInventory::Secret *secretAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    SecretInventory m_inventory;
};
