#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>

// The calls this window made on a server, newest first, with what the server says when
// asked to confirm each one (SPEC §6 confirm, keyless). A server keeps its receipts to
// itself, so this is what the Receipts dock can honestly show for a remote directory:
// the calls made from here, not the server's receipt table. Kept in memory only.
class RemoteCallModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteCallModel)

public:
    enum Column {
        TimeColumn,
        KeyColumn,
        BodyColumn,
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
        QString result; // the output, or why nothing ran
        bool ok = false;
        QString invocationId; // empty when nothing ran
        QString confirmation; // the server's confirm status, or why it could not be asked
    };

    explicit RemoteCallModel(QObject *parent = nullptr);

    void add(Entry entry);
    // Records the confirm answer of every entry of `invocationId`.
    void setConfirmation(const QString &invocationId, const QString &confirmation);
    const Entry *entryAt(int row) const;
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Entry> m_entries; // newest first
};
