#pragma once

#include "dispatch/tokens/capabilitytoken.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>

// The Capability tokens dialog's table: what each token allows and whether it is still
// active. Tokens carry no value, so nothing here can show one.
class CapabilityTokenModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CapabilityTokenModel)

public:
    enum Column {
        IdColumn,
        LabelColumn,
        AudienceColumn,
        ScopeColumn,
        RiskColumn,
        PinnedColumn,
        ExpiryColumn,
        StatusColumn,
        ColumnCount
    };

    explicit CapabilityTokenModel(QObject *parent = nullptr);

    // Status is judged against `nowUtc`, the moment the list was read.
    void setTokens(QList<CapabilityToken> tokens, const QDateTime &nowUtc);
    // Null when `row` is out of range.
    const CapabilityToken *tokenAt(int row) const;
    int rowOf(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const CapabilityToken &token, int column) const;

    QList<CapabilityToken> m_tokens;
    QDateTime m_now;
};
