#pragma once

#include "dispatch/core/storeerror.h"

#include <QSqlDatabase>

#include <functional>
#include <memory>

class DirectoryEngine;

// Read-only connections kept one per worker thread, for an engine whose connecting costs
// round trips and authentication (PostgreSQL): a receipt page read on a worker then
// answers at once instead of ~60 ms later. A connection is closed when its thread
// finishes, after a read that failed (it may be broken, or left in a transaction), and
// with this object. One idle for idleCheckMs is asked a `SELECT 1` before its next read
// and opened anew if the server dropped it (a restart, an idle timeout), so that read
// does not fail for it; a server lost while a thread reads often still fails that
// thread's next read once. Not for a read inside another read on the same thread: the
// two would share the connection.
class ThreadReadConnections final
{
public:
    // Long enough that a worker reading page after page pays no round trip for it.
    static constexpr int kIdleCheckMs = 5000;

    explicit ThreadReadConnections(const DirectoryEngine &engine, int idleCheckMs = kIdleCheckMs);
    ~ThreadReadConnections();
    Q_DISABLE_COPY_MOVE(ThreadReadConnections)

    // Runs `read` on the calling thread's connection, opened on its first read.
    StoreError read(const std::function<StoreError(QSqlDatabase &)> &read);

private:
    struct Kept;

    // The calling thread's kept connection, checked first if it was idle for long; empty
    // when it has none (any more).
    QString keptName(QThread *thread);
    StoreResult<QString> open(QThread *thread);
    void drop(QThread *thread, const QString &name);

    const DirectoryEngine &m_engine;
    int m_idleCheckMs;
    // Shared with the finish handlers, which may run on their threads while this object goes.
    std::shared_ptr<Kept> m_kept;
};
