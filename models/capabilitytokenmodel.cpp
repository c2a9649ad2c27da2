#include "models/capabilitytokenmodel.h"

CapabilityTokenModel::CapabilityTokenModel(QObject *parent) : QAbstractTableModel(parent) {}

void CapabilityTokenModel::setTokens(QList<CapabilityToken> tokens, const QDateTime &nowUtc)
{
    beginResetModel();
    m_tokens = std::move(tokens);
    m_now = nowUtc;
    endResetModel();
}

const CapabilityToken *CapabilityTokenModel::tokenAt(int row) const
{
    return row >= 0 && row < m_tokens.size() ? &m_tokens.at(row) : nullptr;
}

int CapabilityTokenModel::rowOf(const QString &id) const
{
    for (int row = 0; row < m_tokens.size(); ++row)
        if (m_tokens.at(row).id == id)
            return row;
    return -1;
}

int CapabilityTokenModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_tokens.size());
}

int CapabilityTokenModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString CapabilityTokenModel::text(const CapabilityToken &token, int column) const
{
    switch (column) {
    case IdColumn:
        return token.id;
    case LabelColumn:
        return token.label;
    case AudienceColumn:
        return token.audience;
    case ScopeColumn:
        return token.ownerGate ? tr("%1; owner present").arg(token.scopeText()) : token.scopeText();
    case RiskColumn:
        return token.riskCeiling;
    case PinnedColumn:
        // The first characters tell fingerprints apart at a glance; the tooltip has all.
        return token.pinnedContract.isEmpty() ? tr("no")
                                              : token.pinnedContract.left(12) + QStringLiteral("…");
    case ExpiryColumn:
        return token.expiresAt.isEmpty() ? tr("never") : token.expiresAt;
    case StatusColumn:
        return token.status(m_now);
    }
    return {};
}

QVariant CapabilityTokenModel::data(const QModelIndex &index, int role) const
{
    const CapabilityToken *token = index.isValid() ? tokenAt(index.row()) : nullptr;
    if (!token)
        return {};
    if (role == Qt::DisplayRole)
        return text(*token, index.column());
    if (role == Qt::ToolTipRole && index.column() == PinnedColumn && !token->pinnedContract.isEmpty())
        return tr("Pinned contract fingerprint %1: any edit to the row's contract refuses this token.")
            .arg(token->pinnedContract);
    return {};
}

QVariant CapabilityTokenModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IdColumn:
        return tr("Id");
    case LabelColumn:
        return tr("Label");
    case AudienceColumn:
        return tr("Audience");
    case ScopeColumn:
        return tr("Scope");
    case RiskColumn:
        return tr("Risk ceiling");
    case PinnedColumn:
        return tr("Pinned");
    case ExpiryColumn:
        return tr("Expires");
    case StatusColumn:
        return tr("Status");
    }
    return {};
}
