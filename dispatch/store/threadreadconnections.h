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
// with this object. So after the server restarts, each worker's next read fails once and
// the one after it connects again. Not for a read inside another read on the same thread:
// the two would share the connection.
class ThreadReadConnections final
{
public:
    explicit ThreadReadConnections(const DirectoryEngine &engine);
    ~ThreadReadConnections();
    Q_DISABLE_COPY_MOVE(ThreadReadConnections)

    // Runs `read` on the calling thread's connection, opened on its first read.
    StoreError read(const std::function<StoreError(QSqlDatabase &)> &read);

private:
    struct Kept;

    const DirectoryEngine &m_engine;
    // Shared with the finish handlers, which may run on their threads while this object goes.
    std::shared_ptr<Kept> m_kept;
};
