#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/receipt.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <future>
#include <memory>
#include <optional>

// Group commit: signed receipts wait in one queue and are written by one writer, many to
// a transaction, so calls that finish together share one durable flush instead of paying
// one each (a flush costs 0.5-5 ms on real disks, the whole budget of a fn call). The
// writer works on a thread of its own (ReceiptWriter): one batch is in flight at a time,
// and what queues meanwhile goes in the next batch the moment the flight lands, so this
// thread never waits for a flush unless flush() is asked for.
//
// A caller released WhenDurable (a top-level call: its answer carries the receipt) hears
// back only once its batch has committed; such an entry has the queue written as soon as
// the event loop is idle. A caller released WhenQueued (a step inside a flow) goes on at
// once: its receipt rides on a later batch, written at the latest `queuedFlushMs` later,
// and always before or with the receipt of its flow, which is queued after it. The
// dispatcher calls flush() before a step that changes the world, so a crash never loses
// the receipt of what came before a side effect, and does not run the step when that
// write failed. A step's receipt that fails to write fails its flow's receipt (the
// WhenDurable one its parent chain leads to) with the reason, so the loss is never
// silent. Used on one thread.
class ReceiptGroupCommit final
{
public:
    enum class Release { WhenDurable, WhenQueued };
    // Hands one batch to the writer, to be written in one transaction: the future holds one
    // error per receipt, in order. The writer then calls landReady() on this thread.
    using Write = std::function<std::shared_future<QList<StoreError>>(const QList<Receipt> &)>;
    using Done = std::function<void(const StoreResult<Receipt> &)>;

    static constexpr int kMaxBatch = 512;
    static constexpr int kQueuedFlushMs = 20;

    explicit ReceiptGroupCommit(Write write, int queuedFlushMs = kQueuedFlushMs);
    // Answers every caller still waiting with an error: the owner flushes first.
    ~ReceiptGroupCommit();
    Q_DISABLE_COPY_MOVE(ReceiptGroupCommit)

    void add(Receipt receipt, Release release, Done done);
    // Waits for the batch in flight, then writes everything queued now, oldest first in
    // batches of kMaxBatch, and answers their callers; the first receipt's error, if any
    // could not be written.
    StoreError flush();
    // Answers the batch in flight if it has landed, and sends the next one: the writer's
    // notice, on this thread, that a batch is written. A notice for a batch flush() already
    // answered finds nothing to do.
    void landReady();
    // Transactions written so far (batches), and receipts waiting now.
    qint64 batchesWritten() const { return m_batches; }
    qsizetype queued() const { return m_queue.size(); }

private:
    struct Entry
    {
        Receipt receipt;
        Release release;
        Done done;
    };

    struct InFlight
    {
        QList<Entry> batch;
        std::shared_future<QList<StoreError>> result;
    };

    // Hands the oldest kMaxBatch receipts to the writer, unless a batch is in flight.
    void pump();
    void startBatch();
    // Answers the batch in flight, waiting for it if it has not landed; its first error.
    StoreError land();
    void answer(Entry &entry, const StoreError &written);
    void rememberLost(const QString &parent, const QString &why);
    QString takeLost(const QString &invocationId);

    static constexpr int kMaxLostParents = 1024;

    Write m_write;
    QList<Entry> m_queue;
    std::optional<InFlight> m_inFlight;
    // Expires with this object: an answer may close the directory that owns it, and the
    // code that called the answer must then touch nothing of it.
    std::shared_ptr<int> m_alive = std::make_shared<int>(0);
    qint64 m_batches = 0;
    // A flow's invocation id → why a step's receipt under it was not written, until that
    // flow's receipt is answered (or passes it on to its own flow).
    QHash<QString, QString> m_lostByParent;
    QStringList m_lostOrder;
    QObject m_context;
    QTimer m_idle;
    QTimer m_deadline;
};
