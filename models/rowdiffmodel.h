#pragma once

#include <QAbstractTableModel>
#include <QJsonValue>
#include <QList>

// The fields two versions of a row differ in: field, before, after. A version is a row
// object (Row::toJson form) or null when the row did not exist. A multi-line value (the
// content) is shown whole on both sides with its changed lines marked ("- " removed,
// "+ " added), long unchanged stretches folded away. updated_at is left out: it changes
// with every write.
class RowDiffModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowDiffModel)

public:
    enum Column { FieldColumn, BeforeColumn, AfterColumn, ColumnCount };

    explicit RowDiffModel(QObject *parent = nullptr);

    void setVersions(const QJsonValue &before, const QJsonValue &after);
    // The changed fields, in the directory table's column order.
    QStringList fields() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Change
    {
        QString field;
        QString before;
        QString after;
        bool beforeMissing = false; // no row, or SQL NULL: shown dimmed
        bool afterMissing = false;
    };

    QList<Change> m_changes;
};
