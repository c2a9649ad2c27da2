#pragma once

#include "dispatch/call/flowrunrecord.h"
#include "dispatch/flows/run/flowexecutor.h"

#include <QObject>
#include <QPointer>
#include <QSet>

class Dispatcher;
class InvocationHandle;

// The step debugger of SPEC §4 over the one FlowExecutor: step, continue, breakpoints,
// abort, and rerun from step N with the outputs of the steps before N pinned from the
// last run. Each run is a new executor (runStarted()); watch its signals for the state
// before and after every step.
//
// Each run (a first run, or a rerun) is one invocation of the flow row, receipted as a
// normal invoke is: its steps are real, gated, receipted calls sharing the run's new trace,
// at depth 1, with the run's invocation as their parent, and once the run ends (finished,
// failed or aborted) the dispatcher writes the flow's own receipt, with the run's output
// and its active time. A back end that does not link the steps (a plain SPEC §10 server,
// whose step receipts come back without the parent) gets no flow receipt: notRecorded()
// says so. A run that started no step is no invocation: it is not receipted, and
// notRecorded() says that too.
class FlowDebugSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowDebugSession)

public:
    explicit FlowDebugSession(Dispatcher &dispatcher, QObject *parent = nullptr);

    // Aborts any run; breakpoints on steps the new plan does not have are dropped. `key` is
    // the flow row's, which its receipts name.
    void setFlow(const QString &key, const FlowPlan &plan, const QString &body);
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
    // Aborts any run and forgets it, the breakpoints and any flow receipt still being
    // written: run() is null again, as before the first run. For a debugger that now shows
    // another directory, where the forgotten run has no flow receipt to write or show (its
    // steps keep theirs); another flow of the same directory abort()s first, which records.
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
    // The run's flow receipt is written: `outcome.receipt` holds it.
    void recorded(const InvocationOutcome &outcome);
    // The run ended without a flow receipt, and why.
    void notRecorded(const QString &why);

private:
    void startRun(int firstStep, const QList<FlowStepState> &pinned, bool paused);
    // Writes the flow receipt of `run`, begun as `record`, which ended with `output`.
    void record(const FlowExecutor &run, FlowRunRecord record, const QString &output);
    // Whether this run started a call (a pinned step's are the last run's), and the first
    // call whose receipt does not name `parent`; empty when there is none.
    static bool madeCalls(const FlowExecutor &run);
    static QString unlinkedCall(const FlowExecutor &run, const QString &parent);

    Dispatcher &m_dispatcher;
    QString m_key;
    FlowPlan m_plan;
    QString m_body;
    FlowExecutor::RowLookup m_rowLookup;
    FlowLimits m_limits;
    QString m_actor;
    QSet<int> m_breakpoints;
    QPointer<FlowExecutor> m_run;
    QList<QPointer<InvocationHandle>> m_recording; // flow receipts being written
};
