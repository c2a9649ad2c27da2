#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/store/logevent.h"

#include <QAbstractTableModel>
#include <QList>

#include <memory>

class DirectoryHistory;

// The saved versions of one row: its events from the event log (SPEC §8), newest first,
// as time, action and actor. Each event's `after` is the row as that write left it.
class RowHistoryModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowHistoryModel)

public:
    enum Column { TimeColumn, ActionColumn, ActorColumn, ColumnCount };

    explicit RowHistoryModel(QObject *parent = nullptr);

    void setHistory(std::shared_ptr<const DirectoryHistory> history);
    void setKey(const QString &key);
    QString key() const { return m_key; }
    // Reads the key's events again (after a save); on failure the list is empty and the
    // error says why.
    StoreError reload();

    // Null when `row` is out of range.
    const LogEvent *eventAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const DirectoryHistory> m_history;
    QString m_key;
    QList<LogEvent> m_events; // newest first
};
