#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/store/directorychanges.h"

#include <QByteArray>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <memory>

class DirectoryStore;

// Finds row changes made by any writer (the GUI, the CLI, REST, another process on the
// same file, another owner of the same server) by polling the store's change feed, and
// says so once per poll that saw any: a burst of writes between two polls is one change.
// A commit that wrote no row (a receipt) is no change. Each poll runs on a worker, so a
// server's round trip never holds up the messages of the thread that watches; a poll
// still on its way when the next is due is not doubled.
class McpChangeWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpChangeWatch)

public:
    static constexpr int kLocalIntervalMs = 250;

    McpChangeWatch(std::shared_ptr<const DirectoryStore> store, int intervalMs, QObject *parent = nullptr);
    ~McpChangeWatch() override;

    // Takes the baseline, then polls from it; what changes after the baseline is reported.
    void start();

signals:
    void changed();
    void failed(const QString &message);

private:
    void poll();
    void delivered();

    std::shared_ptr<const DirectoryStore> m_store;
    QTimer m_timer;
    QFutureWatcher<StoreResult<DirectoryChanges>> m_poll;
    QByteArray m_cursor;
    bool m_baselineTaken = false;
};
