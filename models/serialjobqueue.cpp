#include "models/serialjobqueue.h"

#include "models/networkpool.h"

#include <QMutex>
#include <QMutexLocker>
#include <QThreadPool>

#include <deque>
#include <utility>

struct SerialJobQueue::State
{
    QMutex mutex;
    std::deque<std::pair<quint64, Job>> queued;
    quint64 nextId = 1;
    bool running = false;
    bool closed = false;
};

SerialJobQueue::SerialJobQueue() : m_state(std::make_shared<State>()) {}

SerialJobQueue::~SerialJobQueue()
{
    QMutexLocker lock(&m_state->mutex);
    m_state->closed = true;
    m_state->queued.clear();
}

quint64 SerialJobQueue::post(Job job)
{
    QMutexLocker lock(&m_state->mutex);
    const quint64 id = m_state->nextId++;
    m_state->queued.emplace_back(id, std::move(job));
    if (!m_state->running) {
        m_state->running = true;
        NetworkPool::instance().start([state = m_state] { drain(state); });
    }
    return id;
}

bool SerialJobQueue::cancel(quint64 id)
{
    QMutexLocker lock(&m_state->mutex);
    for (auto it = m_state->queued.begin(); it != m_state->queued.end(); ++it) {
        if (it->first == id) {
            m_state->queued.erase(it);
            return true;
        }
    }
    return false;
}

void SerialJobQueue::drain(const std::shared_ptr<State> &state)
{
    for (;;) {
        Job job;
        {
            QMutexLocker lock(&state->mutex);
            if (state->queued.empty() || state->closed) {
                state->running = false;
                return;
            }
            job = std::move(state->queued.front().second);
            state->queued.pop_front();
        }
        job();
    }
}
