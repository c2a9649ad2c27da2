#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/receiptfilter.h"
#include "dispatch/receipts/receiptsummaryreader.h"
#include "models/receiptsummarytable.h"

#include <QAbstractTableModel>
#include <QFutureWatcher>

#include <memory>
#include <optional>

// The directory's receipts that pass a filter, newest first, paged from the database: a
// log of tens of millions of receipts is never held, only the pages the view has asked
// for (canFetchMore/fetchMore), kept compact in a ReceiptSummaryTable. Every read runs on
// a worker and stops after a short budget, so a keystroke in a filter answers at once
// and replaces a search still under way. The total is the count the directory keeps,
// read on load and on every refresh(), never counted per keystroke; so is the latest
// archive's cutoff, and when another process archives, the list is read anew, since
// receipts it shows are gone from the directory.
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

    static constexpr int kPageSize = 500;
    // How long one read may look for receipts that pass the filter before it hands over
    // what it found; the next read goes on from there.
    static constexpr int kReadBudgetMs = 120;
    // More new receipts than this since the last look, and the list starts over from the newest.
    static constexpr int kMaxNewer = 10000;

    explicit ReceiptTableModel(QObject *parent = nullptr);
    ~ReceiptTableModel() override;

    // The first page, the total and the statuses and callers, read on this thread.
    StoreError load(std::shared_ptr<const ReceiptSummaryReader> receipts);
    // The same, read on a worker; loadFinished follows.
    void loadProgressively(std::shared_ptr<const ReceiptSummaryReader> receipts);
    // Adds the receipts written since the last look, at the top, and reads the total and
    // the archives again; loadFinished follows.
    void refresh();
    // A read or a count is running or waiting.
    bool isLoading() const { return m_watcher != nullptr || m_countWatcher != nullptr; }
    // A page read is running or waiting (a count may still run beside).
    bool isReadingPages() const { return m_watcher != nullptr; }

    // Lists the receipts that pass `filter`, read anew on a worker; loadFinished follows.
    void setFilter(const ReceiptFilter &filter);
    const ReceiptFilter &filter() const { return m_filter; }
    // Whether every receipt that passes the filter is listed (else fetchMore() lists more).
    bool isComplete() const { return m_exhausted && !m_failed; }

    // Every receipt in the directory, read on load and kept up by refresh(); -1 until known.
    qint64 totalReceipts() const { return m_total; }
    // The receipts listed, oldest first.
    const ReceiptSummaryTable &summaries() const { return m_table; }
    // Receipts started before this instant (ISO 8601, UTC) are archived in segment files;
    // empty while none is, or until read.
    QString archivedBefore() const { return m_archivedBefore; }
    // Every status some receipt has, sorted.
    QStringList statuses() const { return m_statuses; }
    // Every caller some receipt names (owner:local, mcp:NAME, token:ID…), sorted.
    QStringList actors() const { return m_actors; }
    QString invocationIdAt(int row) const;
    int rowOfInvocation(const QString &invocationId) const; // listed row, or -1

    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Cell texts, shared with the panes beside the table. No English translation ships,
    // so counts are spelled out rather than left to "%n receipt(s)".
    static QString durationText(qint64 ms);
    static QString timeText(qint64 msecs);
    static QString receiptsText(qint64 count);

signals:
    // Listed receipts and the directory's total (-1 until counted), after every change.
    void countsChanged(int listed, qint64 total);
    // The statuses or callers offered changed.
    void choicesChanged();
    // Receipts were archived since the last look (by this process or another): the list
    // is read anew, and a receipt shown beside it may be gone from the directory.
    void archivedSince();
    // The page reads ended (a count running beside is not waited for), or a count ended
    // while no page is read; `error` is empty on success.
    void loadFinished(const QString &error);

private:
    struct Job;
    struct Chunk;

    static Chunk run(const ReceiptSummaryReader &receipts, const Job &job);
    static std::shared_ptr<Chunk> readOnWorker(std::shared_ptr<const ReceiptSummaryReader> receipts,
                                               const Job &job);
    static void readOlder(const ReceiptSummaryReader &receipts, const Job &job, qint64 beforeSeq,
                          Chunk &chunk);
    static void count(const ReceiptSummaryReader &receipts, const Job &job, Chunk &chunk);
    void forgetCounts();
    void start(const Job &job);
    void finished();
    // Counts, beside the pages, the receipts not counted yet, if any and none is counting.
    void countIfBehind();
    void countFinished();
    std::optional<Job> countJob() const;
    // A page read failed: nothing more is read until the next filter, refresh or reload.
    void fail(const Chunk &chunk);
    // A Newer read, or the first page anew after a failure.
    Job refreshJob();
    void apply(Chunk &chunk);
    void applyFirstPage(Chunk &chunk);
    void applyOlder(Chunk &chunk);
    void applyNewer(Chunk &chunk);
    void applyCount(const Chunk &chunk);
    // The list is read anew from the newest (a new filter, an archive), in place of what
    // it shows.
    void startOver();
    // The read that should follow, if any: a new filter, a page not full yet, or a refresh
    // that waits.
    std::optional<Job> nextJob();
    Job firstPageJob() const;
    int indexAt(int row) const { return m_table.size() - 1 - row; }

    ReceiptSummaryTable m_table;
    ReceiptFilter m_filter;
    std::shared_ptr<const ReceiptSummaryReader> m_receipts;
    QFutureWatcher<std::shared_ptr<Chunk>> *m_watcher = nullptr;
    QFutureWatcher<std::shared_ptr<Chunk>> *m_countWatcher = nullptr;
    // What failed since loadFinished last said, if anything.
    QString m_error;
    bool m_failed = false;
    bool m_countFailed = false;
    // Bumped by every new filter or reader: a read started before brings nothing back.
    quint64 m_generation = 0;
    // Bumped by every new reader only: what a count brings back holds across filters.
    quint64 m_readerGeneration = 0;
    std::unique_ptr<Job> m_pending;
    bool m_refreshPending = false;
    // How many listed receipts the view has asked for so far.
    int m_wanted = kPageSize;
    qint64 m_nextBeforeSeq = 0;
    bool m_exhausted = true;
    // The newest receipt looked at: refresh() reads the ones above it.
    qint64 m_newestSeq = 0;
    qint64 m_total = -1;
    // The receipts up to this seq are in m_total.
    qint64 m_countedThroughSeq = 0;
    // refresh() asked for the total and the archives to be read again.
    bool m_recount = false;
    qint64 m_archives = -1; // -1 until counted
    QString m_archivedBefore;
    // The last count's failure, said once however many looks it fails again.
    QString m_lastCountError;
    QStringList m_statuses;
    QStringList m_actors;
};
