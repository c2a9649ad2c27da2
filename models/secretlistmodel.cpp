#include "models/secretlistmodel.h"

SecretListModel::SecretListModel(QObject *parent) : QAbstractTableModel(parent) {}

void SecretListModel::setInventory(SecretInventory inventory)
{
    beginResetModel();
    m_inventory = std::move(inventory);
    ++m_generation;
    m_unanswered = 0;
    endResetModel();
}

void SecretListModel::checkKeychain(const KeychainStore &keychain)
{
    const int generation = ++m_generation;
    m_unanswered = m_inventory.secrets().size();
    for (const SecretInventory::Secret &secret : m_inventory.secrets()) {
        setKeychainState(secret.name, SecretInventory::KeychainState::Checking);
        keychain.readAsync(secret.name, this,
                           [this, generation, name = secret.name](const KeychainStore::Read &entry) {
                               if (generation != m_generation)
                                   return;
                               --m_unanswered;
                               setKeychainState(name, SecretInventory::keychainStateOf(entry));
                           });
    }
}

void SecretListModel::checkMemory(const MemorySecrets &memory)
{
    m_inventory.checkMemory(memory);
    if (rowCount() > 0)
        emit dataChanged(index(0, MemoryColumn), index(rowCount() - 1, MemoryColumn));
}

void SecretListModel::setKeychainState(const QString &name, SecretInventory::KeychainState state)
{
    m_inventory.setKeychainState(name, state);
    const QList<SecretInventory::Secret> &secrets = m_inventory.secrets();
    for (int row = 0; row < secrets.size(); ++row) {
        if (secrets.at(row).name == name)
            emit dataChanged(index(row, KeychainColumn), index(row, KeychainColumn));
    }
}

const SecretInventory::Secret *SecretListModel::secretAt(int row) const
{
    const QList<SecretInventory::Secret> &secrets = m_inventory.secrets();
    return row >= 0 && row < secrets.size() ? &secrets[row] : nullptr;
}

int SecretListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_inventory.secrets().size());
}

int SecretListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SecretListModel::data(const QModelIndex &index, int role) const
{
    const SecretInventory::Secret *secret = secretAt(index.row());
    if (!secret)
        return {};
    if (role == Qt::TextAlignmentRole && index.column() == RowsColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == KeychainColumn
        && secret->keychain == SecretInventory::KeychainState::Unavailable)
        return tr("No keychain (Secret Service) is reachable: a value set here is kept in memory until "
                  "Capdesk closes, and the environment still works.");
    if (role == Qt::ToolTipRole && index.column() == MemoryColumn && secret->inMemory)
        return tr("Kept in memory only, until Capdesk closes; never written to disk.");
    if (role == Qt::ToolTipRole && index.column() == EnvironmentColumn && secret->inEnvironment)
        return tr("The environment variable %1 is set; it wins over the keychain.").arg(secret->name);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return secret->name;
    case RowsColumn:
        return secret->rows;
    case FormsColumn:
        return secret->forms.join(QStringLiteral(", "));
    case EnvironmentColumn:
        return secret->inEnvironment ? tr("yes") : tr("no");
    case MemoryColumn:
        return secret->inMemory ? tr("yes") : tr("no");
    case KeychainColumn:
        switch (secret->keychain) {
        case SecretInventory::KeychainState::Present:
            return tr("yes");
        case SecretInventory::KeychainState::Absent:
            return tr("no");
        case SecretInventory::KeychainState::Unavailable:
            return tr("unavailable");
        case SecretInventory::KeychainState::Checking:
            return tr("checking\u2026");
        }
    }
    return {};
}

QVariant SecretListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Secret");
    case RowsColumn:
        return tr("Rows");
    case FormsColumn:
        return tr("Used as");
    case EnvironmentColumn:
        return tr("Environment");
    case KeychainColumn:
        return tr("Keychain");
    case MemoryColumn:
        return tr("In memory");
    }
    return {};
}
