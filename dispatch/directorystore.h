#pragma once

#include "changeset.h"
#include "row.h"
#include "storeerror.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <atomic>
#include <functional>
#include <string_view>

// The handful of columns the directory table shows; the full row is fetched on demand.
struct RowSummary
{
    QString key;
    QString type;
    QString category;
    QString target;
    QString updatedAt;
    bool enabled = true;
    bool sensitive = false;
};

// The same columns as raw UTF-8, valid only during the scan callback: the bulk path that
// loads 100,000 summaries without building a QString per cell.
struct RowSummaryView
{
    std::string_view key;
    std::string_view type;
    std::string_view category;
    std::string_view target;
    std::string_view updatedAt;
    bool enabled = true;
    bool sensitive = false;
};

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
        auto text = [](std::string_view bytes) { return QString::fromUtf8(bytes.data(), qsizetype(bytes.size())); };
        return scanSummaryViews([&](const RowSummaryView &view) {
            sink({text(view.key), text(view.type), text(view.category), text(view.target), text(view.updatedAt),
                  view.enabled, view.sensitive});
        });
    }
    virtual StoreResult<Row> row(const QString &key) const = 0;
    // Safe from any thread (lint-all reads every row on the pool).
    virtual StoreResult<QList<Row>> allRows() const = 0;
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
    // "no recognized fields".
    virtual StoreResult<WriteOutcome> patch(const QString &key, const QJsonObject &fields) = 0;
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

    // Who the writes are recorded as in the event log (SPEC §8): "owner:local" unless set.
    virtual void setActor(const QString &actor) = 0;
    virtual QString actor() const = 0;
};
