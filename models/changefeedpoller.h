#pragma once

#include "dispatch/store/directorychanges.h"
#include "dispatch/store/directorystore.h"
#include "models/serialjobqueue.h"

#include <QObject>
#include <QTimer>

#include <memory>

// Keeps an open directory live: writes made elsewhere (another process on the same file,
// another owner or an agent on the same server) are found by polling the store's change
// feed on a worker, at the store's own interval, and reported as changes(). The store may
// learn its interval from the first poll (a server's kind), so it is read again after each
// answer, unless setInterval() fixed one. Only the timer and that read run on the GUI
// thread; a poll still on its way when the next is due is not doubled.
class ChangeFeedPoller final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChangeFeedPoller)

public:
    explicit ChangeFeedPoller(std::shared_ptr<const DirectoryStore> store, QObject *parent = nullptr);
    ~ChangeFeedPoller() override;

    // Takes a baseline at once (the first poll asks with no cursor), then polls from it.
    // Called as the rows to show are read, so what changes after them is reported.
    void start();
    void stop();
    bool isRunning() const { return m_timer.isActive(); }
    // Polls every `ms` from now on, whatever the store suggests.
    void setInterval(int ms);
    int interval() const { return m_timer.interval(); }
    // Polls at once (View → Reload), unless a poll is on its way.
    void pollNow();

signals:
    void changed(const DirectoryChanges &changes);
    void failed(const StoreError &error);

private:
    void deliver(const StoreResult<DirectoryChanges> &result);

    std::shared_ptr<const DirectoryStore> m_store;
    SerialJobQueue m_queue;
    QTimer m_timer;
    QByteArray m_cursor;
    bool m_polling = false;
    bool m_intervalFixed = false;
    quint64 m_generation = 0;
};
