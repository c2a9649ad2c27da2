#include "dispatch/flows/run/flowdebugsession.h"

#include "dispatch/call/dispatcher.h"
#include "dispatch/call/invocationhandle.h"
#include "dispatch/call/invocationids.h"
#include "dispatch/core/isotime.h"

FlowDebugSession::FlowDebugSession(Dispatcher &dispatcher, QObject *parent)
    : QObject(parent), m_dispatcher(dispatcher)
{}

void FlowDebugSession::setFlow(const QString &key, const FlowPlan &plan, const QString &body)
{
    abort();
    m_key = key;
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
        m_run->disconnect(this);
        m_run->abort();
        m_run->deleteLater();
        m_run = nullptr;
    }
    // A record still on its way answers for the directory it was sent to, not this one.
    for (const QPointer<InvocationHandle> &recording : std::as_const(m_recording))
        delete recording.data();
    m_recording.clear();
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
    FlowRunRecord run;
    run.key = m_key;
    run.body = m_body;
    run.invocationId = InvocationIds::newInvocationId();
    run.trace = InvocationIds::newTrace();
    run.actor = m_actor;
    run.startedAt = IsoTime::nowUtc();
    // The flow as it runs now, an unsaved edit included: its contract is what the receipt names.
    if (m_rowLookup)
        run.draft = m_rowLookup(m_key);
    InvocationRequest stepRequest;
    stepRequest.actor = m_actor;
    stepRequest.parentInvocationId = run.invocationId;
    stepRequest.trace = run.trace;
    stepRequest.depth = 1;
    m_run = new FlowExecutor(m_dispatcher, m_plan, m_body, stepRequest, this);
    FlowExecutor *executor = m_run;
    connect(executor, &FlowExecutor::finished, this,
            [this, executor, run](const QString &output) { record(*executor, run, output); });
    m_run->setLimits(m_limits);
    m_run->setRowLookup(m_rowLookup);
    m_run->setBreakpoints(m_breakpoints);
    m_run->setPauseBeforeEachStep(paused);
    emit runStarted(m_run);
    m_run->start(firstStep, pinned);
}

void FlowDebugSession::record(const FlowExecutor &run, FlowRunRecord record, const QString &output)
{
    if (!madeCalls(run)) {
        emit notRecorded(tr("No step ran, so there is no flow receipt."));
        return;
    }
    if (const QString unlinked = unlinkedCall(run, record.invocationId); !unlinked.isEmpty()) {
        emit notRecorded(
            tr("No flow receipt: the receipt of step call %1 does not name the flow as its parent "
               "(a plain SPEC §10 server does not link steps), so each step stands alone.")
                .arg(unlinked));
        return;
    }
    record.output = output;
    record.activeMs = run.elapsedUs() / 1000;
    InvocationHandle *handle = m_dispatcher.recordFlowRun(record);
    handle->setParent(this);
    m_recording.removeIf([](const QPointer<InvocationHandle> &done) { return !done; });
    m_recording.append(handle);
    connect(handle, &InvocationHandle::finished, this, [this, handle] {
        const InvocationOutcome &outcome = handle->outcome();
        if (!outcome.refusal.isEmpty())
            emit notRecorded(tr("The flow receipt was not written: %1").arg(outcome.refusal));
        else if (!outcome.receipt)
            emit notRecorded(tr("The flow receipt was not written: %1").arg(outcome.receiptError));
        else
            emit recorded(outcome);
        handle->deleteLater();
    });
}

bool FlowDebugSession::madeCalls(const FlowExecutor &run)
{
    for (const FlowStepState &step : run.steps()) {
        for (const FlowStepState::Call &call : step.calls) {
            if (!step.pinned && call.startedAtUs >= 0)
                return true;
        }
    }
    return false;
}

QString FlowDebugSession::unlinkedCall(const FlowExecutor &run, const QString &parent)
{
    for (const FlowStepState &step : run.steps()) {
        for (const FlowStepState::Call &call : step.calls) {
            if (!step.pinned && !call.invocationId.isEmpty() && call.receiptParent != parent)
                return call.invocationId;
        }
    }
    return QString();
}
