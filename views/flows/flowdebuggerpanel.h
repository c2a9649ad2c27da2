#pragma once

#include <QPointer>
#include <QTimer>
#include <QWidget>

class DirectoryDocument;
class Dispatcher;
class FlowDebugSession;
class FlowExecutor;
class FlowStepLogView;
class FlowTimelineView;
class FlowVariablesView;
class FlowVisualizerView;
class QAction;
class QLabel;
class QLineEdit;

// The flow step debugger: the flow's graph coloured by run state (pending, running, done,
// error), Step (F10), Continue (F5), Breakpoint (F9) on the chosen step, Abort and Rerun
// from here (the steps above keep their outputs), the variables of the step paused at or
// clicked, each call's output, duration and receipt, and a timeline of the run.
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

    void setDocument(DirectoryDocument *document);
    void showRow(const QString &key);
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

signals:
    // A node was clicked: select this row in the table.
    void keyActivated(const QString &key);

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
    void watch(FlowExecutor *run);
    void refresh();
    void showVariables(int step);
    void updateActions();
    void setStatus(const QString &text);

    FlowDebugSession *m_session;
    QPointer<DirectoryDocument> m_document;
    FlowVisualizerView *m_visualizer;
    FlowVariablesView *m_variables;
    FlowStepLogView *m_log;
    FlowTimelineView *m_timeline;
    QLineEdit *m_body;
    QLabel *m_status;
    QAction *m_step;
    QAction *m_continue;
    QAction *m_breakpoint;
    QAction *m_abort;
    QAction *m_rerun;
    int m_chosenStep = -1; // the step last clicked, for F9 and Rerun from here
    QTimer m_tick; // grows the running bars of the timeline
};
