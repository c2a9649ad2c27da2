#include "models/changefeedpoller.h"

#include "models/guithreadinbox.h"

#include <QPointer>

ChangeFeedPoller::ChangeFeedPoller(std::shared_ptr<const DirectoryStore> store, QObject *parent)
    : QObject(parent), m_store(std::move(store))
{
    m_timer.setInterval(m_store->changePollIntervalMs());
    connect(&m_timer, &QTimer::timeout, this, &ChangeFeedPoller::pollNow);
}

ChangeFeedPoller::~ChangeFeedPoller() = default;

void ChangeFeedPoller::start()
{
    ++m_generation;
    m_polling = false;
    m_cursor.clear();
    m_timer.start();
    pollNow();
}

void ChangeFeedPoller::stop()
{
    ++m_generation;
    m_polling = false;
    m_timer.stop();
}

void ChangeFeedPoller::setInterval(int ms)
{
    m_intervalFixed = true;
    m_timer.setInterval(ms);
}

void ChangeFeedPoller::pollNow()
{
    if (m_polling || !m_timer.isActive())
        return;
    m_polling = true;
    QPointer<ChangeFeedPoller> self(this);
    m_queue.post([self, generation = m_generation, store = m_store, cursor = m_cursor]() mutable {
        StoreResult<DirectoryChanges> result = store->changesSince(cursor);
        // The store goes back with the answer: a server connection is released on the GUI thread.
        GuiThreadInbox::post([self, generation, result = std::move(result), store = std::move(store)] {
            if (self && generation == self->m_generation)
                self->deliver(result);
        });
    });
}

void ChangeFeedPoller::deliver(const StoreResult<DirectoryChanges> &result)
{
    m_polling = false;
    if (!result.ok()) {
        emit failed(result.error());
        return;
    }
    m_cursor = result.value().cursor;
    if (!m_intervalFixed && m_timer.interval() != m_store->changePollIntervalMs())
        m_timer.setInterval(m_store->changePollIntervalMs());
    if (!result.value().unchanged)
        emit changed(result.value());
}
