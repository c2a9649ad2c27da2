#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QJsonObject>
#include <QList>

// The calls made in this session, newest first: what was asked (key, body) and the
// response object the engine gave (SPEC §11), so an entry can be reopened exactly as it
// was shown. Kept in memory only; older entries beyond the cap are dropped.
class InvocationHistoryModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InvocationHistoryModel)

public:
    enum Column { TimeColumn, KeyColumn, BodyColumn, OkColumn, DurationColumn, ColumnCount };
    static constexpr int maxEntries = 500;

    struct Entry
    {
        QDateTime time;
        QString key;
        QString body;
        qint64 durationMs = 0;
        QJsonObject response; // InvocationOutcome::toResponse()

        bool ok() const { return response.value(QStringLiteral("ok")).toBool(); }
        QJsonObject request() const { return {{QStringLiteral("key"), key}, {QStringLiteral("body"), body}}; }
    };

    explicit InvocationHistoryModel(QObject *parent = nullptr);

    // Inserts at the top and returns its row (always 0).
    int add(Entry entry);
    // Null when `row` is out of range.
    const Entry *entryAt(int row) const;
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Entry> m_entries; // newest first
};
