#include "dispatch/flows/run/flowdebugsession.h"

#include "dispatch/call/invocationids.h"

FlowDebugSession::FlowDebugSession(Dispatcher &dispatcher, QObject *parent)
    : QObject(parent), m_dispatcher(dispatcher)
{}

void FlowDebugSession::setFlow(const FlowPlan &plan, const QString &body)
{
    abort();
    m_plan = plan;
    m_body = body;
    m_breakpoints.removeIf([this](int step) { return step >= m_plan.steps.size(); });
}

void FlowDebugSession::toggleBreakpoint(int step)
{
    if (step < 0 || step >= m_plan.steps.size())
        return;
    if (!m_breakpoints.remove(step))
        m_breakpoints.insert(step);
    if (m_run)
        m_run->setBreakpoints(m_breakpoints);
}

bool FlowDebugSession::isActive() const
{
    return m_run
           && (m_run->state() == FlowExecutor::State::Running
               || m_run->state() == FlowExecutor::State::Paused);
}

void FlowDebugSession::step()
{
    if (isActive())
        m_run->step();
    else
        startRun(0, {}, true);
}

void FlowDebugSession::resume()
{
    if (isActive())
        m_run->resume();
    else
        startRun(0, {}, false);
}

void FlowDebugSession::abort()
{
    if (m_run)
        m_run->abort();
}

void FlowDebugSession::reset()
{
    if (m_run) {
        m_run->abort();
        m_run->deleteLater();
        m_run = nullptr;
    }
    m_breakpoints.clear();
}

bool FlowDebugSession::rerunFrom(int step)
{
    if (step < 0 || step >= m_plan.steps.size())
        return false;
    const QList<FlowStepState> last = m_run ? m_run->steps() : QList<FlowStepState>();
    for (int i = 0; i < step; ++i) {
        if (i >= last.size() || last[i].phase != FlowStepState::Phase::Done)
            return false;
    }
    startRun(step, last, true);
    return true;
}

void FlowDebugSession::startRun(int firstStep, const QList<FlowStepState> &pinned, bool paused)
{
    abort();
    if (m_run)
        m_run->deleteLater();
    InvocationRequest stepRequest;
    stepRequest.actor = m_actor;
    stepRequest.trace = InvocationIds::newTrace();
    stepRequest.depth = 1;
    m_run = new FlowExecutor(m_dispatcher, m_plan, m_body, stepRequest, this);
    m_run->setLimits(m_limits);
    m_run->setRowLookup(m_rowLookup);
    m_run->setBreakpoints(m_breakpoints);
    m_run->setPauseBeforeEachStep(paused);
    emit runStarted(m_run);
    m_run->start(firstStep, pinned);
}
