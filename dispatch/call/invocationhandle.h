#pragma once

#include "dispatch/call/invocation.h"

#include <QObject>

#include <atomic>
#include <memory>

// One running invocation, as the caller holds it: cancel it, or wait for finished().
// Emitted exactly once, on the thread that started the invocation.
class InvocationHandle final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InvocationHandle)

public:
    explicit InvocationHandle(QObject *parent = nullptr);

    void cancel();
    bool isFinished() const { return m_finished; }
    const InvocationOutcome &outcome() const { return m_outcome; }
    std::shared_ptr<std::atomic_bool> cancelFlag() const { return m_cancelled; }

    // For the dispatcher: records the outcome and emits finished().
    void finish(InvocationOutcome outcome);
    // For the dispatcher: the runner has the call, so something may have happened; until
    // then (its receipt key or secret still being looked up) nothing has.
    void markStarted() { m_started = true; }
    bool hasStarted() const { return m_started; }

signals:
    void finished();

private:
    std::shared_ptr<std::atomic_bool> m_cancelled = std::make_shared<std::atomic_bool>(false);
    InvocationOutcome m_outcome;
    bool m_finished = false;
    bool m_started = false;
};
