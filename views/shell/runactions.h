#pragma once

#include <QObject>

class CallPanel;
class FlowPane;
class QAction;
class QDockWidget;

// The Run menu: Invoke (Ctrl+Return) and the flow debugger's Step, Continue, Breakpoint
// and Abort. Invoke runs the selected row only while the Shape and invoke panel is in
// view, so the arguments and the confirmation are where the owner looks; from anywhere
// else the key brings that panel forward and runs nothing. Step and Continue bring the
// flow debugger forward as they start a run.
class RunActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunActions)

public:
    RunActions(CallPanel *calls, QDockWidget *callDock, FlowPane *flows, QDockWidget *flowDock,
               QObject *parent = nullptr);

    QAction *invokeAction() const { return m_invoke; }
    // The debugger's own actions, in menu order: Step, Continue, Breakpoint, Abort, Rerun.
    QList<QAction *> debugActions() const;

    void invoke();

signals:
    void statusMessage(const QString &message);

private:
    // Whether `dock` is on screen and not behind another dock's tab.
    static bool isInView(const QDockWidget *dock);
    static void bringForward(QDockWidget *dock);

    CallPanel *m_calls;
    QDockWidget *m_callDock;
    FlowPane *m_flows;
    QDockWidget *m_flowDock;
    QAction *m_invoke;
};
