#include "views/shell/runactions.h"

#include "views/flows/flowdebuggerpanel.h"
#include "views/flows/flowpane.h"
#include "views/invoke/callpanel.h"
#include "views/invoke/invokepanel.h"

#include <QAction>
#include <QDockWidget>

RunActions::RunActions(CallPanel *calls, QDockWidget *callDock, FlowPane *flows, QDockWidget *flowDock,
                       QObject *parent)
    : QObject(parent), m_calls(calls), m_callDock(callDock), m_flows(flows), m_flowDock(flowDock),
      m_invoke(new QAction(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("&Invoke"), this))
{
    m_invoke->setObjectName(QStringLiteral("invokeAction"));
    m_invoke->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_invoke->setStatusTip(tr("Run the selected row for real, in the Shape and invoke panel"));
    connect(m_invoke, &QAction::triggered, this, &RunActions::invoke);
    // Greyed as the panel's Invoke button is: no row, or a call of it still running.
    InvokePanel *panel = m_calls->invokePanel();
    m_invoke->setEnabled(panel->canInvoke());
    connect(panel, &InvokePanel::canInvokeChanged, m_invoke, &QAction::setEnabled);
    // A debug run started from the menu should be seen.
    FlowDebuggerPanel *debugger = m_flows->debugger();
    for (QAction *action : {debugger->stepAction(), debugger->continueAction()}) {
        connect(action, &QAction::triggered, this, [this] {
            if (!isInView(m_flowDock))
                bringForward(m_flowDock);
            m_flows->showDebugger();
        });
    }
}

QList<QAction *> RunActions::debugActions() const
{
    FlowDebuggerPanel *debugger = m_flows->debugger();
    return {debugger->stepAction(), debugger->continueAction(), debugger->breakpointAction(),
            debugger->abortAction(), debugger->rerunAction()};
}

void RunActions::invoke()
{
    if (!isInView(m_callDock)) {
        bringForward(m_callDock);
        emit statusMessage(tr("Check the arguments in Shape and invoke, then press %1 to run the row.")
                               .arg(m_invoke->shortcut().toString(QKeySequence::NativeText)));
        return;
    }
    m_calls->invokePanel()->invoke();
}

bool RunActions::isInView(const QDockWidget *dock)
{
    return dock->isVisible() && !dock->visibleRegion().isEmpty();
}

void RunActions::bringForward(QDockWidget *dock)
{
    dock->show();
    dock->raise();
}
