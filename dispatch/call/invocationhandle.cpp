#include "dispatch/call/invocationhandle.h"

InvocationHandle::InvocationHandle(QObject *parent) : QObject(parent) {}

void InvocationHandle::cancel()
{
    m_cancelled->store(true);
}

void InvocationHandle::finish(InvocationOutcome outcome)
{
    if (m_finished)
        return;
    m_outcome = std::move(outcome);
    m_finished = true;
    emit finished();
}
