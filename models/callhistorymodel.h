#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

// The calls made from this window, newest first, local or on a server: what was asked
// (key, body), the response object the engine or the server gave (SPEC §11), so an entry
// can be reopened exactly as it was shown, and for a server's call what the server says
// when asked to confirm it (SPEC §6 confirm, keyless). A server keeps its receipts to
// itself, so for a remote directory this is what the Receipts dock can honestly show.
// Kept in memory only; older entries beyond the cap are dropped. Each view shows the
// columns it needs and hides the others.
class CallHistoryModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CallHistoryModel)

public:
    enum Column {
        TimeColumn,
        KeyColumn,
        BodyColumn,
        OkColumn,
        DurationColumn,
        ResultColumn,
        InvocationColumn,
        ConfirmColumn,
        ColumnCount
    };
    static constexpr int maxEntries = 500;

    struct Entry
    {
        QDateTime time;
        QString key;
        QString body;
        qint64 durationMs = 0;
        QJsonObject response; // InvocationOutcome::toResponse()
        QString confirmation = {}; // the server's confirm status, or why it could not be asked

        bool ok() const { return response.value(QStringLiteral("ok")).toBool(); }
        QJsonObject request() const { return {{QStringLiteral("key"), key}, {QStringLiteral("body"), body}}; }
        // Empty when nothing ran.
        QString invocationId() const;
        // The output, or why nothing ran.
        QString resultText() const;
    };

    explicit CallHistoryModel(QObject *parent = nullptr);

    // Inserts at the top and returns its row (always 0).
    int add(Entry entry);
    // Records the confirm answer of every entry of `invocationId`.
    void setConfirmation(const QString &invocationId, const QString &confirmation);
    // Null when `row` is out of range.
    const Entry *entryAt(int row) const;
    void clear();
    // All entries at once, newest first: a window keeps one history per directory and
    // swaps them in as directories are opened.
    const QList<Entry> &entries() const { return m_entries; }
    void setEntries(QList<Entry> entries);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const Entry &entry, int column) const;
    QVariant toolTip(const Entry &entry, int column) const;

    QList<Entry> m_entries; // newest first
};
