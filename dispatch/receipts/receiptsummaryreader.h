#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/receiptfilter.h"
#include "dispatch/receipts/receiptsummaryview.h"

#include <QList>
#include <QPointF>
#include <QStringList>

#include <functional>
#include <memory>

class QSqlDatabase;
class QSqlQuery;
class SqlDirectoryStore;

// The viewer's questions to the `receipts` table, each an indexed query, so that a log of
// tens of millions of receipts is paged rather than held: a page of the newest receipts
// that pass a filter, the ones that arrived since, a trace, the kept count, the statuses
// and callers in use, and a key's durations in time buckets. Safe from any thread: off
// the store's own thread it reads through a short-lived read-only connection.
class ReceiptSummaryReader final
{
public:
    using Sink = std::function<void(const ReceiptSummaryView &)>;

    // Where a page left off: the next page starts below `nextBeforeSeq`; `exhausted` when
    // every receipt below the start has been looked at.
    struct Scan
    {
        qint64 nextBeforeSeq = 0;
        bool exhausted = true;
    };

    enum class Column { Status, Actor };

    // At most this many distinct statuses or callers are offered; more are not read.
    static constexpr int kMaxChoices = 500;
    // A trace holds at most this many receipts in the viewer's tree.
    static constexpr int kMaxTraceReceipts = 10000;

    explicit ReceiptSummaryReader(std::shared_ptr<const SqlDirectoryStore> store);

    // The receipts that pass `filter` with seq below `beforeSeq` (0: from the newest),
    // newest first, until `wanted` are found, all have been looked at, or `budgetMs` of
    // reading went by. The table is read in seq windows, so a filter that few receipts
    // pass costs at most the budget per call and the caller goes on where it left off.
    StoreResult<Scan> older(const ReceiptFilter &filter, qint64 beforeSeq, int wanted, int budgetMs,
                            const Sink &sink) const;
    // The receipts that pass `filter` with seq in (`afterSeq`, `throughSeq`], oldest first,
    // at most `limit`.
    StoreError newer(const ReceiptFilter &filter, qint64 afterSeq, qint64 throughSeq, int limit,
                     const Sink &sink) const;
    // The receipts of one trace, oldest first, at most kMaxTraceReceipts.
    StoreError trace(const QString &trace, const Sink &sink) const;
    // How many receipts the directory holds, as its triggers keep the count (migration
    // 0193), the newest seq among them, how many archives were taken and the latest
    // one's cutoff (empty before the first), read at one instant.
    struct Total
    {
        qint64 count = 0;
        qint64 throughSeq = 0;
        qint64 archives = 0;
        QString archivedBefore;
    };
    StoreResult<Total> total() const;
    // The highest seq written so far (0 when there is none).
    StoreResult<qint64> newestSeq() const;
    // Every distinct value of `column`, sorted, at most kMaxChoices: one index probe each.
    StoreResult<QStringList> distinct(Column column) const;
    // What a key's durations are plotted by: each receipt, or the slowest of each bucket.
    enum class Bucket { Receipt, Minute, Hour, Day, Month, Year };
    struct Durations
    {
        QList<QPointF> points;
        Bucket bucket = Bucket::Receipt;
    };
    // The durations of `key`'s receipts, oldest first: x the start (UTC ms since the
    // epoch; a bucket's start), y the duration in ms. Up to `maxPoints` receipts, one
    // point each; beyond, the slowest receipt of each minute, hour, day, month or year,
    // whichever gives at most `maxPoints` buckets, worked out in SQL.
    StoreResult<Durations> durations(const QString &key, int maxPoints) const;

private:
    StoreError read(const std::function<StoreError(QSqlDatabase &)> &work) const;
    StoreError failed(const QSqlQuery &query) const;
    StoreError failed(const QString &why) const;

    std::shared_ptr<const SqlDirectoryStore> m_store;
};
