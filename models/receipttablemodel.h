#pragma once

#include "dispatch/core/storeerror.h"
#include "models/receiptfilter.h"
#include "models/receiptsummarytable.h"

#include <QAbstractTableModel>
#include <QFutureWatcher>
#include <QList>
#include <QPointF>

#include <functional>
#include <memory>
#include <vector>

class ReceiptSummaryReader;

// The directory's receipts, newest first, through a filter. Filtering works on index
// vectors over ReceiptSummaryTable, never on QVariants, so a keystroke over 100,000
// receipts stays inside one frame; reading happens on a worker thread.
class ReceiptTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReceiptTableModel)

public:
    enum Column {
        TimeColumn,
        KeyColumn,
        RunnerColumn,
        ActorColumn,
        DurationColumn,
        MaterialColumn,
        StatusColumn,
        ColumnCount
    };
    enum Role {
        InvocationIdRole = Qt::UserRole + 1, // whatever the column
        KeyRole,
        StartedMsecsRole, // qint64, UTC ms since the epoch
        DurationMsRole, // qint64
    };

    explicit ReceiptTableModel(QObject *parent = nullptr);
    ~ReceiptTableModel() override;

    // Replaces everything with every receipt `receipts` reads, read on this thread.
    StoreError load(std::shared_ptr<const ReceiptSummaryReader> receipts);
    // Shows the newest `firstPage` receipts at once and reads all of them on a worker,
    // swapping them in when done (loadFinished). Filter and selection carry over.
    StoreError loadProgressively(std::shared_ptr<const ReceiptSummaryReader> receipts, int firstPage = 256);
    // Adds the receipts written since the last read (a worker reads only those), at the
    // top; loadFinished follows.
    void refresh();
    bool isLoading() const { return m_watcher != nullptr; }

    void setFilter(const ReceiptFilter &filter);
    const ReceiptFilter &filter() const { return m_filter; }

    int totalReceipts() const { return m_table.size(); }
    const ReceiptSummaryTable &summaries() const { return m_table; }
    // Every status some receipt has, sorted.
    QStringList statuses() const;
    // Every caller some receipt names (owner:local, mcp:NAME, token:ID…), sorted.
    QStringList actors() const;
    QString invocationIdAt(int row) const;
    int rowOfInvocation(const QString &invocationId) const; // visible row, or -1
    // Every receipt of `key`, filtered or not, oldest first: x is the start (UTC ms since
    // the epoch), y the duration in ms.
    QList<QPointF> durationsOf(const QString &key) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Cell texts, shared with the panes beside the table. No English translation ships,
    // so counts are spelled out rather than left to "%n receipt(s)".
    static QString durationText(qint64 ms);
    static QString timeText(qint64 msecs);
    static QString receiptsText(int count);

signals:
    // Visible and total receipt counts, after every change that can move them.
    void countsChanged(int visible, int total);
    // A receipt with a status or a caller not seen before arrived, or the table was replaced.
    void choicesChanged();
    // A background read completed; `error` is empty on success.
    void loadFinished(const QString &error);

private:
    struct Chunk;

    QStringList distinctTexts(ReceiptSummaryTable::Field field) const;

    void discardRead();
    void startRead(qint64 afterSeq);
    void readFinished();
    void install(ReceiptSummaryTable &&table);
    void appendNewer(const ReceiptSummaryTable &newer);
    // Applies `change`, which leaves m_visible up to date, and moves persistent indexes
    // along with their receipts.
    void relayout(const std::function<void()> &change);
    std::vector<int> filtered(const ReceiptFilter &filter) const;
    int indexAt(int row) const { return m_visible[m_visible.size() - 1 - std::size_t(row)]; }
    int rowOfIndex(int index) const;

    ReceiptSummaryTable m_table;
    // Visible m_table indexes, ascending; row 0 is the last one, the newest.
    std::vector<int> m_visible;
    ReceiptFilter m_filter;
    std::shared_ptr<const ReceiptSummaryReader> m_receipts;
    QFutureWatcher<std::shared_ptr<Chunk>> *m_watcher = nullptr;
    bool m_refreshPending = false;
};
