#pragma once

#include "dispatch/flows/run/flowexecutor.h"

#include <QObject>
#include <QPointer>
#include <QSet>

class Dispatcher;

// The step debugger of SPEC §4 over the one FlowExecutor: step, continue, breakpoints,
// abort, and rerun from step N with the outputs of the steps before N pinned from the
// last run. Each run is a new executor (runStarted()); watch its signals for the state
// before and after every step.
//
// A debug run is not an invocation of the flow row: its steps are real, gated,
// receipted calls that share one new trace, at depth 1, with no parent receipt.
class FlowDebugSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowDebugSession)

public:
    explicit FlowDebugSession(Dispatcher &dispatcher, QObject *parent = nullptr);

    // Aborts any run; breakpoints on steps the new plan does not have are dropped.
    void setFlow(const FlowPlan &plan, const QString &body);
    void setRowLookup(FlowExecutor::RowLookup lookup) { m_rowLookup = std::move(lookup); }
    void setLimits(const FlowLimits &limits) { m_limits = limits; }
    // Whose calls the steps are: "owner:local" unless set.
    void setActor(const QString &actor) { m_actor = actor; }

    void toggleBreakpoint(int step);
    const QSet<int> &breakpoints() const { return m_breakpoints; }

    // With no run going: start one, paused before step 1. Paused: run one step.
    void step();
    // With no run going: start one that stops only at breakpoints. Paused: run on.
    void resume();
    void abort();
    // Aborts any run and forgets it and the breakpoints: run() is null again, as before the
    // first run. For a debugger that now shows another flow or another directory.
    void reset();
    // Runs again from `step`, paused before it, the steps before it pinned from the last
    // run. False (nothing starts) when that run did not finish those steps.
    bool rerunFrom(int step);

    // The current run, or the last one; null before the first.
    FlowExecutor *run() const { return m_run; }
    bool isActive() const;
    const FlowPlan &plan() const { return m_plan; }

signals:
    void runStarted(FlowExecutor *run);

private:
    void startRun(int firstStep, const QList<FlowStepState> &pinned, bool paused);

    Dispatcher &m_dispatcher;
    FlowPlan m_plan;
    QString m_body;
    FlowExecutor::RowLookup m_rowLookup;
    FlowLimits m_limits;
    QString m_actor;
    QSet<int> m_breakpoints;
    QPointer<FlowExecutor> m_run;
};
