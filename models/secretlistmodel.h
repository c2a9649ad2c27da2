#pragma once

#include "dispatch/secrets/secretinventory.h"

#include <QAbstractTableModel>

// The Secrets dialog's table: one row per secret NAME the directory refers to, with how
// many rows use it and where it has a value. It only ever holds names and yes/no answers.
// The keychain column is filled in asynchronously: "checking…" until the keychain answers.
class SecretListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretListModel)

public:
    enum Column {
        NameColumn,
        RowsColumn,
        FormsColumn,
        EnvironmentColumn,
        KeychainColumn,
        MemoryColumn,
        ColumnCount
    };

    explicit SecretListModel(QObject *parent = nullptr);

    // Drops the answers still due for the inventory shown so far.
    void setInventory(SecretInventory inventory);
    // Asks the keychain whether it holds each name, without blocking; every answer updates
    // its row (dataChanged).
    void checkKeychain(const KeychainStore &keychain);
    bool isCheckingKeychain() const { return m_unanswered > 0; }
    // Which names have a value kept in memory for this run; answers at once.
    void checkMemory(const MemorySecrets &memory);
    const SecretInventory &inventory() const { return m_inventory; }
    // Null when `row` is out of range.
    const SecretInventory::Secret *secretAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void setKeychainState(const QString &name, SecretInventory::KeychainState state);

    SecretInventory m_inventory;
    // Which inventory a keychain answer is for: answers for an earlier one are dropped.
    int m_generation = 0;
    qsizetype m_unanswered = 0;
};
