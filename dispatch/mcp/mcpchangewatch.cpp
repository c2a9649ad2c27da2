#include "dispatch/mcp/mcpchangewatch.h"

#include "dispatch/store/directorystore.h"

#include <QtConcurrent/QtConcurrentRun>

McpChangeWatch::McpChangeWatch(std::shared_ptr<const DirectoryStore> store, int intervalMs, QObject *parent)
    : QObject(parent), m_store(std::move(store))
{
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &McpChangeWatch::poll);
    connect(&m_poll, &QFutureWatcherBase::finished, this, &McpChangeWatch::delivered);
}

McpChangeWatch::~McpChangeWatch()
{
    m_timer.stop();
    m_poll.waitForFinished();
}

void McpChangeWatch::start()
{
    poll();
    m_timer.start();
}

void McpChangeWatch::poll()
{
    if (m_poll.isRunning())
        return;
    std::shared_ptr<const DirectoryStore> store = m_store;
    const QByteArray cursor = m_cursor;
    m_poll.setFuture(QtConcurrent::run([store, cursor] { return store->changesSince(cursor); }));
}

void McpChangeWatch::delivered()
{
    const StoreResult<DirectoryChanges> changes = m_poll.result();
    if (!changes.ok()) {
        emit failed(changes.error().message);
        return;
    }
    m_cursor = changes.value().cursor;
    const bool baseline = !m_baselineTaken;
    m_baselineTaken = true;
    if (!baseline && !changes.value().unchanged)
        emit changed();
}
