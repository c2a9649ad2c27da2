#include "dispatch/flows/run/flowexecutor.h"

#include "dispatch/call/callbudget.h"
#include "dispatch/call/dispatcher.h"
#include "dispatch/call/invocationhandle.h"
#include "dispatch/core/faultnotice.h"
#include "dispatch/core/outputlimit.h"
#include "dispatch/templates/templatecontext.h"
#include "dispatch/templates/templatesubstitution.h"

using namespace Qt::StringLiterals;

namespace {

// How often a running flow looks at its invocation's cancel flag, which nothing signals.
constexpr int cancelPollMs = 50;

// A token holder's flow does not pass on a step's server fault (a 500): the flow's output
// is theirs, and the fault's text stays in the log (FaultNotice).
QString outputOf(const InvocationOutcome &outcome, bool forTokenHolder)
{
    if (outcome.ran)
        return outcome.result.output;
    const bool fault = forTokenHolder && outcome.refusalStatus == 500;
    return u"ERR: "_s + (fault ? FaultNotice::hide(outcome.refusal) : outcome.refusal);
}

bool isFailure(const QString &output)
{
    return output.startsWith(QLatin1String("ERR:"));
}

// SPEC §4: {KEY: output, …} in branch order, which a QJsonObject would sort away. Not
// built when the outputs alone pass the cap, so the object never needs more than it allows.
QString fanOutObject(const QList<FlowStepState::Call> &calls, qint64 maxBytes, int step)
{
    const QString what = u"step %1's fan-out object"_s.arg(step + 1);
    qint64 units = 2;
    for (const FlowStepState::Call &call : calls)
        units += call.key.size() + call.output.size() + 6;
    if (!OutputLimit::mayFit(units, maxBytes))
        return OutputLimit::error(what, maxBytes);
    QString json = u"{"_s;
    for (const FlowStepState::Call &call : calls) {
        if (json.size() > 1)
            json += u',';
        json += u'"' + TemplateSubstitution::escapeJsonString(call.key) + u"\":\""_s
                + TemplateSubstitution::escapeJsonString(call.output) + u'"';
    }
    json += u'}';
    return OutputLimit::check(json, maxBytes, what).value_or(json);
}

} // namespace

FlowExecutor::FlowExecutor(Dispatcher &dispatcher, FlowPlan plan, QString body, InvocationRequest stepRequest,
                           QObject *parent)
    : QObject(parent), m_dispatcher(dispatcher), m_plan(std::move(plan)), m_body(std::move(body)),
      m_args(TemplateContext::splitBody(m_body)), m_stepRequest(std::move(stepRequest)),
      m_budget(m_stepRequest.budget ? m_stepRequest.budget : std::make_shared<CallBudget>(DispatchLimits{}))
{
    m_stepRequest.budget = m_budget;
    for (int i = 0; i < m_plan.steps.size(); ++i) {
        FlowStepState state;
        state.index = i;
        for (const FlowCall &call : std::as_const(m_plan.steps[i].calls))
            state.calls.append({call.key, {}, {}, FlowStepState::Phase::Pending, {}, 0, {}, -1, -1, {}});
        m_steps.append(state);
    }
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this,
            [this] { stop(u"ERR: flow_timeout: the flow ran longer than %1 ms"_s.arg(m_limits.timeoutMs)); });
    m_cancelPoll.setInterval(cancelPollMs);
    connect(&m_cancelPoll, &QTimer::timeout, this, [this] {
        if (isCancelled())
            stop(u"ERR: cancelled"_s);
    });
}

FlowExecutor::~FlowExecutor()
{
    // A late result must not reach a dead executor; the calls' receipts are still written.
    for (const QPointer<InvocationHandle> &handle : std::as_const(m_inFlight)) {
        if (handle) {
            handle->cancel();
            delete handle;
        }
    }
}

void FlowExecutor::start(int firstStep, const QList<FlowStepState> &pinned)
{
    if (m_state != State::Ready)
        return;
    m_state = State::Running;
    m_first = firstStep;
    m_pinned = pinned;
    m_clock.start();
    QMetaObject::invokeMethod(this, &FlowExecutor::begin, Qt::QueuedConnection);
}

void FlowExecutor::begin()
{
    if (m_state != State::Running)
        return;
    if (m_stepRequest.depth > m_limits.maxDepth)
        return finish(u"ERR: flow_depth_limit: flows nest deeper than %1"_s.arg(m_limits.maxDepth));
    m_prev = m_body;
    if (!pin(m_pinned))
        return;
    int calls = 0;
    for (int i = m_first; i < m_plan.steps.size(); ++i)
        calls += int(m_plan.steps[i].calls.size());
    if (calls > m_limits.maxSteps)
        return finish(u"ERR: flow_step_limit: %1 calls, more than the %2 one flow may make"_s.arg(calls).arg(
            m_limits.maxSteps));
    for (int i = m_first; i < m_plan.steps.size(); ++i) {
        const qsizetype width = m_plan.steps[i].calls.size();
        if (width > m_budget->limits().maxFanOutWidth)
            return finish(
                u"ERR: call_budget: step %1 fans out to %2 branches, more than the %3 allowed"_s.arg(i + 1)
                    .arg(width)
                    .arg(m_budget->limits().maxFanOutWidth));
    }
    m_budgetMs = m_limits.timeoutMs;
    prepare(m_first);
}

bool FlowExecutor::pin(const QList<FlowStepState> &pinned)
{
    for (int i = 0; i < m_first && i < m_steps.size(); ++i) {
        if (i >= pinned.size() || pinned[i].phase != FlowStepState::Phase::Done) {
            finish(u"ERR: flow: step %1 has no output to pin; run it first"_s.arg(i + 1));
            return false;
        }
        m_steps[i] = pinned[i];
        m_steps[i].pinned = true;
        absorb(m_steps[i]);
    }
    return true;
}

void FlowExecutor::prepare(int index)
{
    if (index >= m_steps.size())
        return finish(m_prev);
    if (isCancelled())
        return finish(u"ERR: cancelled"_s);
    m_current = index;
    FlowStepState &state = m_steps[index];
    state.prev = m_prev;
    state.args = m_args;
    state.bindings = m_bindings;
    for (int b = 0; b < state.calls.size(); ++b)
        state.calls[b] = prepareCall(m_plan.steps[index].calls[b]);
    for (const FlowStepState::Call &call : std::as_const(state.calls)) {
        if (call.phase == FlowStepState::Phase::Failed) {
            state.phase = FlowStepState::Phase::Failed;
            return finish(call.output);
        }
    }
    emit stepPrepared(index);
    if (m_state != State::Running)
        return; // a slot aborted the run
    if (m_pauseBeforeEach || m_breakpoints.contains(index))
        return pause();
    launch();
}

FlowStepState::Call FlowExecutor::prepareCall(const FlowCall &call) const
{
    FlowStepState::Call prepared;
    prepared.key = call.key;
    const TemplateContext context{m_args, m_prev, m_bindings};
    const TemplateResult body =
        TemplateSubstitution::apply(call.body, context, TemplateMode::Raw, m_budget->limits().maxOutputBytes);
    prepared.resolvedBody = body.text;
    if (!body.ok()) {
        prepared.phase = FlowStepState::Phase::Failed;
        prepared.output = body.error;
    }
    if (m_rowLookup)
        prepared.row = m_rowLookup(call.key);
    return prepared;
}

// Why the step may not start: the tree is cancelled, past its deadline, or cannot pay for
// every branch (checked before any starts, so a refused fan-out leaves no receipts).
std::optional<QString> FlowExecutor::refusal(const FlowStep &step) const
{
    if (isCancelled())
        return u"ERR: cancelled"_s;
    if (m_budget->expired())
        return u"ERR: dispatch_timeout: the call tree ran past its %1 ms"_s.arg(m_budget->limits().timeoutMs);
    if (step.calls.size() > m_budget->callsLeft()) {
        return u"ERR: call_budget: the call tree may make %1 calls in all; step %2 needs %3 and %4 are left"_s
            .arg(m_budget->limits().maxTreeCalls)
            .arg(m_current + 1)
            .arg(step.calls.size())
            .arg(m_budget->callsLeft());
    }
    return std::nullopt;
}

void FlowExecutor::launch()
{
    if (const std::optional<QString> refused = refusal(m_plan.steps[m_current])) {
        m_steps[m_current].phase = FlowStepState::Phase::Failed;
        return finish(*refused);
    }
    m_state = State::Running;
    m_runningFor.start();
    m_timeout.start(int(qMax<qint64>(0, m_budgetMs)));
    m_cancelPoll.start();
    const int index = m_current;
    m_steps[index].phase = FlowStepState::Phase::Running;
    // The dispatcher may run a nested event loop while it starts a call: earlier branches
    // can finish, and the run be stopped, before the later ones start. So the step is not
    // completed from inside this loop, the loop ends when the run stopped, and the step is
    // reached by index (a slot may hold a copy of steps(), so no reference into it lasts).
    m_launching = true;
    for (int b = 0; b < m_steps[index].calls.size(); ++b) {
        InvocationRequest request = m_stepRequest;
        request.key = m_steps[index].calls[b].key;
        request.body = m_steps[index].calls[b].resolvedBody;
        m_steps[index].calls[b].phase = FlowStepState::Phase::Running;
        m_steps[index].calls[b].startedAtUs = elapsedUs();
        InvocationHandle *handle = m_dispatcher.invoke(request);
        if (m_state != State::Running) {
            dropStartedAfterStop(index, b, handle);
            break;
        }
        m_inFlight.insert(b, handle);
        connect(handle, &InvocationHandle::finished, this, [this, b, handle] { onCallFinished(b, handle); });
        if (handle->isFinished())
            QMetaObject::invokeMethod(
                this, [this, b, handle] { onCallFinished(b, handle); }, Qt::QueuedConnection);
    }
    m_launching = false;
    if (m_state != State::Running)
        return;
    emit stepStarted(index);
    if (m_inFlight.isEmpty()) {
        // Every branch finished while the others were being started: complete from the
        // event loop, as always.
        QMetaObject::invokeMethod(
            this,
            [this, index] {
                if (m_state == State::Running && m_current == index && !m_launching && m_inFlight.isEmpty())
                    completeStep();
            },
            Qt::QueuedConnection);
    }
}

// A call the dispatcher started while the run was being stopped: stop() never saw it.
void FlowExecutor::dropStartedAfterStop(int index, int branch, InvocationHandle *handle)
{
    handle->cancel();
    handle->deleteLater();
    FlowStepState::Call &call = m_steps[index].calls[branch];
    call.phase = FlowStepState::Phase::Failed;
    call.output = m_output;
    call.finishedAtUs = elapsedUs();
    m_steps[index].phase = FlowStepState::Phase::Failed;
}

void FlowExecutor::onCallFinished(int branch, InvocationHandle *handle)
{
    if (m_inFlight.value(branch) != handle)
        return; // already handled, or dropped by stop()
    m_inFlight.remove(branch);
    const InvocationOutcome &outcome = handle->outcome();
    FlowStepState::Call &call = m_steps[m_current].calls[branch];
    call.finishedAtUs = elapsedUs();
    call.output = outputOf(outcome, !m_stepRequest.token.isEmpty());
    call.durationMs = outcome.durationMs;
    call.invocationId = outcome.invocationId;
    call.receiptParent = outcome.receipt ? outcome.receipt->parent : QString();
    call.phase = isFailure(call.output) ? FlowStepState::Phase::Failed : FlowStepState::Phase::Done;
    handle->deleteLater();
    emit callFinished(m_current, branch);
    if (m_inFlight.isEmpty() && m_state == State::Running && !m_launching)
        completeStep();
}

void FlowExecutor::completeStep()
{
    m_timeout.stop();
    m_cancelPoll.stop();
    m_budgetMs -= m_runningFor.elapsed();
    FlowStepState &state = m_steps[m_current];
    const FlowStep &planned = m_plan.steps[m_current];
    state.output = planned.fanOut ? fanOutObject(state.calls, m_budget->limits().maxOutputBytes, m_current)
                                  : state.calls.value(0).output;
    for (const FlowStepState::Call &call : std::as_const(state.calls)) {
        if (call.phase == FlowStepState::Phase::Failed) {
            state.output = call.output; // the first failing branch, in branch order
            break;
        }
    }
    const bool failed = isFailure(state.output);
    state.phase = failed ? FlowStepState::Phase::Failed : FlowStepState::Phase::Done;
    emit stepFinished(m_current);
    if (failed)
        return finish(state.output);
    if (m_state != State::Running)
        return;
    absorb(state);
    prepare(m_current + 1);
}

void FlowExecutor::absorb(const FlowStepState &step)
{
    const FlowStep &planned = m_plan.steps[step.index];
    for (int b = 0; b < planned.calls.size() && b < step.calls.size(); ++b) {
        if (!planned.calls[b].binding.isEmpty())
            m_bindings.insert(planned.calls[b].binding, step.calls[b].output);
    }
    if (!planned.binding.isEmpty())
        m_bindings.insert(planned.binding, step.output);
    m_prev = step.output;
}

void FlowExecutor::pause()
{
    m_state = State::Paused;
    m_pausedSinceNs = clockNs();
    emit paused(m_current);
}

void FlowExecutor::step()
{
    if (m_state != State::Paused)
        return;
    endPause();
    m_pauseBeforeEach = true;
    launch();
}

void FlowExecutor::resume()
{
    if (m_state != State::Paused)
        return;
    endPause();
    m_pauseBeforeEach = false;
    launch();
}

void FlowExecutor::endPause()
{
    if (m_pausedSinceNs >= 0)
        m_pausedNs += clockNs() - std::exchange(m_pausedSinceNs, -1);
}

qint64 FlowExecutor::clockNs() const
{
    if (m_finishedAtNs >= 0)
        return m_finishedAtNs;
    return m_clock.isValid() ? m_clock.nsecsElapsed() : 0;
}

qint64 FlowExecutor::pausedUs() const
{
    const qint64 open = m_pausedSinceNs >= 0 ? clockNs() - m_pausedSinceNs : 0;
    return (m_pausedNs + open) / 1000;
}

qint64 FlowExecutor::elapsedUs() const
{
    // One reading of the clock: while paused this is the same number however late it is read.
    const qint64 now = clockNs();
    const qint64 open = m_pausedSinceNs >= 0 ? now - m_pausedSinceNs : 0;
    return (now - m_pausedNs - open) / 1000;
}

void FlowExecutor::abort()
{
    stop(u"ERR: flow aborted"_s);
}

void FlowExecutor::stop(const QString &output)
{
    if (m_state == State::Finished)
        return;
    const QHash<int, QPointer<InvocationHandle>> inFlight = std::exchange(m_inFlight, {});
    for (auto it = inFlight.cbegin(); it != inFlight.cend(); ++it) {
        if (!it.value())
            continue;
        it.value()->cancel();
        it.value()->deleteLater();
        FlowStepState::Call &call = m_steps[m_current].calls[it.key()];
        call.phase = FlowStepState::Phase::Failed;
        call.output = output;
        call.finishedAtUs = elapsedUs();
    }
    if (!inFlight.isEmpty())
        m_steps[m_current].phase = FlowStepState::Phase::Failed;
    finish(output);
}

void FlowExecutor::finish(const QString &output)
{
    if (m_state == State::Finished)
        return;
    endPause();
    m_finishedAtNs = clockNs();
    m_state = State::Finished;
    m_timeout.stop();
    m_cancelPoll.stop();
    m_output = output;
    m_current = int(m_steps.size());
    emit finished(output);
}
