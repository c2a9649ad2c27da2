#pragma once

#include "dispatch/call/invocation.h"
#include "dispatch/core/flowlimits.h"
#include "dispatch/flows/flowplan.h"
#include "dispatch/flows/run/flowstepstate.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class CallBudget;
class Dispatcher;
class InvocationHandle;

// Runs one flow plan (SPEC §4) over a Dispatcher: each step's body substituted (raw mode)
// with the flow's args, $PREV and bindings, then invoked as a nested call; fan-out
// branches all at once; the first "ERR:" stops the flow and becomes its output.
//
// The flow runner lets it run through; the debugger pauses it before steps (stepping or
// breakpoints) and may start it part-way with earlier steps' outputs pinned. Both see the
// same signals. Lives on the thread that started it; finished() is emitted exactly once,
// always from the event loop.
//
// Every step body, $PREV and fan-out object is held to the call tree's byte cap, each
// step is checked against the tree's CallBudget (calls left, fan-out width, deadline)
// before any of its calls starts, and a step whose calls the budget cannot pay for does
// not start at all.
class FlowExecutor final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowExecutor)

public:
    enum class State { Ready, Running, Paused, Finished };
    using RowLookup = std::function<std::optional<Row>(const QString &key)>;

    // `stepRequest` is what every step's request is made from: the caller's actor, token,
    // audience and owner presence, the flow's invocation as parent, its trace, the depth
    // the steps run at and the call tree's budget (a new one from DispatchLimits' defaults
    // when it has none). Key and body are the step's own.
    FlowExecutor(Dispatcher &dispatcher, FlowPlan plan, QString body, InvocationRequest stepRequest,
                 QObject *parent = nullptr);
    ~FlowExecutor() override;

    void setLimits(const FlowLimits &limits) { m_limits = limits; }
    // The flow invocation's own cancel flag: no step starts once it is set, and running
    // steps are cancelled.
    void setCancelFlag(std::shared_ptr<std::atomic_bool> cancelled) { m_cancelled = std::move(cancelled); }
    // For the debugger's "target row"; without it no row is looked up.
    void setRowLookup(RowLookup lookup) { m_rowLookup = std::move(lookup); }
    void setBreakpoints(const QSet<int> &steps) { m_breakpoints = steps; }
    void setPauseBeforeEachStep(bool pause) { m_pauseBeforeEach = pause; }

    // Begins from the event loop. Steps before `firstStep` do not run: their states come
    // from `pinned` (an earlier run's steps(), which must have finished them).
    void start(int firstStep = 0, const QList<FlowStepState> &pinned = {});
    void step(); // paused: runs the step it paused before, then pauses before the next
    void resume(); // paused: runs on to the next breakpoint or the end
    void abort(); // cancels what is in flight; the output is "ERR: flow aborted"

    State state() const { return m_state; }
    const QList<FlowStepState> &steps() const { return m_steps; }
    const FlowPlan &plan() const { return m_plan; }
    int currentStep() const { return m_current; }
    QString output() const { return m_output; }
    // Time the run was not paused, on the clock the calls' start and finish times are read
    // from, so a debugger's timings and timeline leave the pauses out. Both stop at the end.
    qint64 elapsedUs() const;
    // Time spent paused before steps, shown apart.
    qint64 pausedUs() const;

signals:
    void stepPrepared(int index); // steps()[index] holds what the step will run with
    void paused(int index);
    void stepStarted(int index); // its calls are in flight
    void callFinished(int index, int branch);
    void stepFinished(int index);
    void finished(const QString &output);

private:
    void begin();
    bool pin(const QList<FlowStepState> &pinned);
    void prepare(int index);
    FlowStepState::Call prepareCall(const FlowCall &call) const;
    std::optional<QString> refusal(const FlowStep &step) const;
    void launch();
    void dropStartedAfterStop(int index, int branch, InvocationHandle *handle);
    void onCallFinished(int branch, InvocationHandle *handle);
    void completeStep();
    void absorb(const FlowStepState &step);
    void pause();
    void stop(const QString &output);
    void finish(const QString &output);
    bool isCancelled() const { return m_cancelled && m_cancelled->load(); }

    Dispatcher &m_dispatcher;
    FlowPlan m_plan;
    QString m_body;
    QStringList m_args;
    InvocationRequest m_stepRequest;
    std::shared_ptr<CallBudget> m_budget;
    FlowLimits m_limits;
    std::shared_ptr<std::atomic_bool> m_cancelled;
    RowLookup m_rowLookup;
    QSet<int> m_breakpoints;
    bool m_pauseBeforeEach = false;

    State m_state = State::Ready;
    QList<FlowStepState> m_steps;
    int m_first = 0;
    QList<FlowStepState> m_pinned;
    int m_current = 0;
    QString m_prev;
    QHash<QString, QString> m_bindings;
    QString m_output;
    QHash<int, QPointer<InvocationHandle>> m_inFlight; // by branch
    bool m_launching = false; // launch() is starting the step's calls

    qint64 clockNs() const;
    void endPause();

    QElapsedTimer m_clock; // since the run began
    qint64 m_pausedNs = 0; // paused spans that ended
    qint64 m_pausedSinceNs = -1; // on m_clock, while paused
    qint64 m_finishedAtNs = -1; // on m_clock, once finished
    QElapsedTimer m_runningFor; // since the last resume, for the timeout budget
    qint64 m_budgetMs = 0;
    QTimer m_timeout;
    QTimer m_cancelPoll;
};
