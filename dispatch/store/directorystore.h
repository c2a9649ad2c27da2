#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/row/row.h"
#include "dispatch/row/rowsummary.h"
#include "dispatch/store/changeset.h"
#include "dispatch/store/directorychanges.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <algorithm>
#include <atomic>
#include <functional>

// How many rows name one `auth` text (SPEC §3 Auth): the raw text, as stored.
struct AuthUsage
{
    QString auth;
    int rows = 0;
};

struct WriteOutcome
{
    QString key;
    QString updatedAt;
    bool created = false;
};

// A caller's hold on an applyTracked() running on another thread: setting `cancelled`
// stops it before its next write is sent (a write already sent may still land: the caller
// re-reads the row to learn which). `written` is filled by the applying thread, in order;
// read it once the call has returned.
struct ApplyTracking
{
    std::atomic_bool cancelled{false};
    QList<WriteOutcome> written;
};

// A capability directory, wherever it lives. Views and the CLI hold only this interface,
// so an embedded SQLite file and (later) a remote server behave the same to them.
// Every write stamps `updated_at` (and `created_at` on create), is all-or-nothing, and
// appends one DIRECTORY_MUTATE event per changed row to the event log (SPEC §8).
class DirectoryStore
{
public:
    virtual ~DirectoryStore() = default;

    // A path or URL, for titles and messages.
    virtual QString location() const = 0;

    // Every row's summary, in storage order; with `firstByKey` > 0 only that many rows, in
    // key order (what the table paints first while the rest loads). Safe from any thread.
    virtual StoreError scanSummaryViews(const std::function<void(const RowSummaryView &)> &sink,
                                        int firstByKey = 0) const = 0;
    StoreError scanSummaries(const std::function<void(const RowSummary &)> &sink) const
    {
        return scanSummaryViews([&](const RowSummaryView &view) { sink(RowSummary::of(view)); });
    }
    virtual StoreResult<Row> row(const QString &key) const = 0;
    // Safe from any thread.
    virtual StoreResult<QList<Row>> allRows() const = 0;
    // The order scanRows() hands rows over in. A caller that needs each row once and no
    // order (lint-all, the registry total) asks for Any, and the store reads in the order it
    // reads fastest: SQLite reads its table in storage order ~2.5× faster than through the
    // key index, which looks every row up again.
    enum class RowOrder { ByKey, Any };
    // Every row, in `order`, handed to `sink` in batches of up to `batchRows`, so a caller
    // that needs each row once (lint-all, the registry total) never holds all of them: at
    // 100,000 rows that copy was most of the GUI's memory. `sink` returns false to stop
    // early. Safe from any thread. This default reads them all first, in key order, which
    // suits a store whose listing is one answer anyway; a store that can stream does.
    using RowBatchSink = std::function<bool(QList<Row> &&batch)>;
    static constexpr int kScanBatchRows = 1000;
    virtual StoreError scanRows(const RowBatchSink &sink, int batchRows = kScanBatchRows,
                                RowOrder order = RowOrder::ByKey) const
    {
        Q_UNUSED(order)
        batchRows = std::max(1, batchRows);
        StoreResult<QList<Row>> rows = allRows();
        if (!rows.ok())
            return rows.error();
        for (qsizetype begin = 0; begin < rows.value().size(); begin += batchRows) {
            if (!sink(rows.value().mid(begin, batchRows)))
                break;
        }
        return StoreError::none();
    }
    // The rows among `keys` that exist, in no particular order: one round trip for a
    // bulk edit of a selection instead of one per row.
    virtual StoreResult<QList<Row>> rows(const QStringList &keys) const = 0;
    // Keys whose content contains `needle` (ASCII case-insensitive). Safe to call from any
    // thread, so a search over 100,000 contents never runs on the GUI thread.
    virtual StoreResult<QStringList> keysWithContent(const QString &needle) const = 0;
    // Every distinct non-blank `auth` with the number of rows using it, for the Secrets
    // dialog. Safe from any thread.
    virtual StoreResult<QList<AuthUsage>> authUsage() const = 0;

    virtual StoreResult<WriteOutcome> create(Row row) = 0;
    // With `expectedUpdatedAt` (the updated_at the caller read), a row changed since by
    // someone else is refused as a Conflict instead of being overwritten. A replace is
    // judged only on the fields it changes, so old rows stay editable.
    virtual StoreResult<WriteOutcome> replace(Row row, const QString &expectedUpdatedAt = QString()) = 0;
    // Creates the row when the key is free, replaces it otherwise.
    virtual StoreResult<WriteOutcome> put(Row row) = 0;
    // Only the 13 allow-listed fields; a patch naming none is refused with
    // "no recognized fields". A non-empty `expectedUpdatedAt` is a Conflict when the row
    // changed since, judged inside the write, so no other writer can land in between.
    virtual StoreResult<WriteOutcome> patch(const QString &key, const QJsonObject &fields,
                                            const QString &expectedUpdatedAt = QString()) = 0;
    virtual StoreError remove(const QString &key, const QString &expectedUpdatedAt = QString()) = 0;

    // Rows as they are (timestamps kept); a duplicate or taken key refuses the whole batch.
    virtual StoreError importRows(const QList<Row> &rows) = 0;
    virtual StoreError apply(const ChangeSet &changes) = 0;
    // apply() that reports each written row and can be cancelled between writes; a
    // cancelled call returns Kind::Cancelled (all-or-nothing stores then write nothing).
    virtual StoreError applyTracked(const ChangeSet &changes, ApplyTracking &tracking) = 0;

    // Whether every call is a round trip to another machine: the GUI then never calls the
    // store on its own thread, and answers from the rows it last read instead.
    virtual bool hasRoundTrips() const = 0;

    // The change feed: what other writers (another process, an agent, a tool editing the
    // table with plain SQL) changed since `cursor`. Safe from any thread.
    //  - An empty cursor returns only the current cursor (unchanged = true): the baseline
    //    a caller takes BEFORE its initial full scan, so nothing between the two is missed.
    //  - A cursor from an earlier answer gives the rows created or changed since and the
    //    keys deleted since, or `complete` with every row when a delta cannot be told.
    //  - An unknown or garbled cursor (hostile input) is answered as a complete listing,
    //    never an error or a crash.
    // This store's own writes are reported too; a caller tells them apart by updated_at.
    virtual StoreResult<DirectoryChanges> changesSince(const QByteArray &cursor) const = 0;
    // How often a GUI should poll changesSince() by default: cheap for a local file
    // (1000), a server that answers deltas (5000), a plain SPEC §10 server (60000).
    virtual int changePollIntervalMs() const = 0;

    // Who the writes are recorded as in the event log (SPEC §8): "owner:local" unless set.
    virtual void setActor(const QString &actor) = 0;
    virtual QString actor() const = 0;
};
