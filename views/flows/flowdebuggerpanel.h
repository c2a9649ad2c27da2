#pragma once

#include <QPointer>
#include <QTimer>
#include <QWidget>

class DirectoryDocument;
class Dispatcher;
class FlowDebugSession;
class FlowExecutor;
struct InvocationOutcome;
class FlowStepLogView;
class FlowTimelineView;
class FlowVariablesView;
class FlowVisualizerView;
class QAction;
class QLabel;
class QLineEdit;
class WorldEffectGate;

// The flow step debugger: the flow's graph coloured by run state (pending, running, done,
// error), Step (F10), Continue (F5), Breakpoint (F9) on the chosen step, Abort (Shift+F5)
// and Rerun from here (the steps above keep their outputs), the variables of the step
// paused at or clicked, each call's output, duration and receipt, and a timeline of the
// run. Clicking a node chooses its step (the Graph tab is where a click goes to the row).
// Timings are active time: a pause is shown apart. The keys work inside the Flow dock,
// and window-wide while a run is going (the Run menu holds the same actions).
//
// Runs go through the real dispatcher, so steps reach real upstreams and write real
// receipts. The flow text is the row's as the document has it (unsaved edits included),
// read when a run starts.
class FlowDebuggerPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowDebuggerPanel)

public:
    explicit FlowDebuggerPanel(Dispatcher &dispatcher, QWidget *parent = nullptr);

    // A new directory, even one showing the same key, starts over: no run, log or timing of
    // the previous one stays on screen.
    void setDocument(DirectoryDocument *document);
    // Another flow starts over too; the same flow keeps its run.
    void showRow(const QString &key);
    // A run that reaches a world-changing step asks here once, before its first step;
    // without a gate it runs unasked.
    void setWorldEffectGate(WorldEffectGate *gate) { m_gate = gate; }
    void setBody(const QString &body);
    QString key() const;

    FlowDebugSession *session() const { return m_session; }
    FlowVisualizerView *visualizer() const { return m_visualizer; }
    FlowVariablesView *variables() const { return m_variables; }
    FlowStepLogView *stepLog() const { return m_log; }
    FlowTimelineView *timeline() const { return m_timeline; }
    QAction *stepAction() const { return m_step; }
    QAction *continueAction() const { return m_continue; }
    QAction *breakpointAction() const { return m_breakpoint; }
    QAction *abortAction() const { return m_abort; }
    QAction *rerunAction() const { return m_rerun; }
    QString status() const;
    // The last run's flow receipt ("Flow receipt: inv_…", a link), or why it has none.
    QString receiptNote() const;

signals:
    // A step's or the flow's receipt id was activated: show that receipt.
    void receiptRequested(const QString &invocationId);

private:
    QAction *addToolAction(const QString &text, const QKeySequence &shortcut,
                           void (FlowDebuggerPanel::*slot)());
    QWidget *buildToolBar();
    void stepOnce();
    void continueRun();
    void toggleBreakpoint();
    void abortRun();
    void rerunFromChosen();
    bool loadFlow();
    // Before a new run: false when the owner did not confirm its world-changing steps.
    bool confirmNewRun();
    void resetRun();
    void watch(FlowExecutor *run);
    void refresh();
    void showVariables(int step);
    void updateActions();
    void setStatus(const QString &text);
    void showRecorded(const InvocationOutcome &outcome);
    void showNotRecorded(const QString &why);

    FlowDebugSession *m_session;
    QPointer<DirectoryDocument> m_document;
    WorldEffectGate *m_gate = nullptr;
    FlowVisualizerView *m_visualizer;
    FlowVariablesView *m_variables;
    FlowStepLogView *m_log;
    FlowTimelineView *m_timeline;
    QLineEdit *m_body;
    QLabel *m_status;
    QLabel *m_receiptNote;
    QAction *m_step;
    QAction *m_continue;
    QAction *m_breakpoint;
    QAction *m_abort;
    QAction *m_rerun;
    int m_chosenStep = -1; // the step last clicked, for F9 and Rerun from here
    QTimer m_tick; // grows the running bars of the timeline
};
