#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/receipt.h"
#include "dispatch/receipts/signingkey.h"

#include <QList>
#include <QObject>

#include <condition_variable>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

class SqlDirectoryStore;

// The group commit's one writer, on a thread of its own with a database connection of its
// own: while it waits for a batch's durable flush, the thread that serves calls goes on
// running them and queueing their receipts, which then share the next flush. Without it
// that thread stood still for every flush (4 ms on some disks), and 16 clients reached only
// a quarter of the throughput the same server had with flushes for free.
//
// Batches are handed over with write() and written one after another in that order; the
// returned future is ready once the batch is committed (or refused), and written() is
// then emitted, to be received in the event loop of the thread the writer was made on.
// The hand-over is a std::mutex queue rather than a posted Qt event, so ThreadSanitizer
// sees the ordering (Debian's Qt is not instrumented).
class ReceiptWriter final : public QObject
{
    Q_OBJECT

public:
    // The connection is opened on the writer's thread at the first batch, and again after
    // a failure; an open that fails is the answer of that batch.
    ReceiptWriter(std::shared_ptr<SqlDirectoryStore> store, SigningKey key);
    // Writes the batches handed over, then closes the connection and joins the thread.
    ~ReceiptWriter() override;
    Q_DISABLE_COPY_MOVE(ReceiptWriter)

    std::shared_future<QList<StoreError>> write(QList<Receipt> receipts);

signals:
    void written();

private:
    struct Job
    {
        QList<Receipt> receipts;
        std::promise<QList<StoreError>> promise;
    };
    class Connection;

    void run();

    std::shared_ptr<SqlDirectoryStore> m_store;
    SigningKey m_key;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Job> m_jobs;
    bool m_stopping = false;
    std::thread m_thread;
};
