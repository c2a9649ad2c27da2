#pragma once

#include <QtGlobal>

#include <functional>
#include <memory>

// Jobs that run one after another, in the order posted, off the calling thread. They run
// on a thread pool kept for the whole process, so dropping a queue never waits for the job
// that is running: a request to a slow server finishes on its own, and whoever posted it
// drops its answer (the job checks a guard it captured). Queued jobs that never started
// are dropped with the queue.
class SerialJobQueue final
{
public:
    using Job = std::function<void()>;

    SerialJobQueue();
    ~SerialJobQueue();
    Q_DISABLE_COPY_MOVE(SerialJobQueue)

    // An id for cancel().
    quint64 post(Job job);
    // True when the job had not started: it will never run. False when it is running,
    // has run, or was never posted here.
    bool cancel(quint64 id);

private:
    struct State;
    static void drain(const std::shared_ptr<State> &state);

    std::shared_ptr<State> m_state;
};
