#include "views/flows/flowdebuggerpanel.h"

#include "dispatch/flows/run/flowdebugsession.h"
#include "models/directorydocument.h"
#include "views/common/worldeffectgate.h"
#include "views/flows/flowsteplogview.h"
#include "views/flows/flowtimelineview.h"
#include "views/flows/flowvariablesview.h"
#include "views/flows/flowvisualizerview.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

constexpr int tickMs = 50;

FlowNodeItem::State nodeState(FlowStepState::Phase phase)
{
    switch (phase) {
    case FlowStepState::Phase::Running:
        return FlowNodeItem::State::Running;
    case FlowStepState::Phase::Done:
        return FlowNodeItem::State::Done;
    case FlowStepState::Phase::Failed:
        return FlowNodeItem::State::Failed;
    case FlowStepState::Phase::Pending:
        break;
    }
    return FlowNodeItem::State::Pending;
}

QString noteFor(const FlowStepState &step, const FlowStepState::Call &call)
{
    if (step.pinned)
        return FlowDebuggerPanel::tr("pinned");
    if (call.phase == FlowStepState::Phase::Done || call.phase == FlowStepState::Phase::Failed)
        return FlowDebuggerPanel::tr("%1 ms").arg(call.durationMs);
    return {};
}

// The last step that ran or was pinned: what the variables show once a run is over.
int lastReachedStep(const QList<FlowStepState> &steps)
{
    for (int i = int(steps.size()) - 1; i >= 0; --i) {
        if (steps[i].phase != FlowStepState::Phase::Pending)
            return i;
    }
    return -1;
}

// "Finished in 20 ms (paused 58.7 s): output", the time being the run's active time; a run
// that failed says at which step, an aborted one says so.
QString finishedText(const FlowExecutor &run, const QString &output)
{
    const qint64 pausedMs = run.pausedUs() / 1000;
    const QString paused =
        pausedMs > 0 ? FlowDebuggerPanel::tr(" (paused %1 s)").arg(double(pausedMs) / 1000.0, 0, 'f', 1)
                     : QString();
    const qint64 activeMs = run.elapsedUs() / 1000;
    if (output == QLatin1String("ERR: flow aborted"))
        return FlowDebuggerPanel::tr("Aborted after %1 ms%2: %3").arg(activeMs).arg(paused, output);
    const int reached = lastReachedStep(run.steps());
    if (output.startsWith(QLatin1String("ERR:")) && reached >= 0)
        return FlowDebuggerPanel::tr("Failed at step %1 (%2) after %3 ms%4: %5")
            .arg(reached + 1)
            .arg(run.steps()[reached].calls.value(0).key)
            .arg(activeMs)
            .arg(paused, output.left(200));
    return FlowDebuggerPanel::tr("Finished in %1 ms%2: %3").arg(activeMs).arg(paused, output.left(200));
}

} // namespace

FlowDebuggerPanel::FlowDebuggerPanel(Dispatcher &dispatcher, QWidget *parent)
    : QWidget(parent), m_session(new FlowDebugSession(dispatcher, this)),
      m_visualizer(new FlowVisualizerView), m_variables(new FlowVariablesView), m_log(new FlowStepLogView),
      m_timeline(new FlowTimelineView), m_body(new QLineEdit), m_status(new QLabel), m_receiptNote(new QLabel)
{
    m_step = addToolAction(tr("Step"), Qt::Key_F10, &FlowDebuggerPanel::stepOnce);
    m_continue = addToolAction(tr("Continue"), Qt::Key_F5, &FlowDebuggerPanel::continueRun);
    m_breakpoint = addToolAction(tr("Breakpoint"), Qt::Key_F9, &FlowDebuggerPanel::toggleBreakpoint);
    m_abort = addToolAction(tr("Abort"), QKeySequence(Qt::SHIFT | Qt::Key_F5), &FlowDebuggerPanel::abortRun);
    m_rerun = addToolAction(tr("Rerun from here"), QKeySequence(), &FlowDebuggerPanel::rerunFromChosen);

    // Side by side, so each keeps the dock's whole height: on a laptop screen the bottom
    // dock is a quarter of the window, and stacked they showed two rows each.
    auto *record = new QTabWidget;
    record->setObjectName(u"flowRunRecord"_s);
    record->setDocumentMode(true);
    record->addTab(m_log, tr("Steps"));
    record->addTab(m_timeline, tr("Timeline"));
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_visualizer);
    split->addWidget(m_variables);
    split->addWidget(record);
    split->setChildrenCollapsible(false);
    // The graph is what a user steps through: it gets the larger share.
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    split->setSizes({480, 320, 380});
    m_visualizer->setMinimumWidth(240);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // It quotes step outputs: an upstream's text, never rich text.
    m_status->setTextFormat(Qt::PlainText);
    m_receiptNote->setObjectName(u"flowReceiptNote"_s);
    m_receiptNote->setWordWrap(true);
    m_receiptNote->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_receiptNote->hide();
    // The outcome sits under the buttons that caused it, visible however short the dock.
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(buildToolBar());
    layout->addWidget(m_status);
    layout->addWidget(m_receiptNote);
    layout->addWidget(split, 1);

    connect(m_session, &FlowDebugSession::runStarted, this, &FlowDebuggerPanel::watch);
    connect(m_session, &FlowDebugSession::recorded, this, &FlowDebuggerPanel::showRecorded);
    connect(m_session, &FlowDebugSession::notRecorded, this, &FlowDebuggerPanel::showNotRecorded);
    connect(m_receiptNote, &QLabel::linkActivated, this, &FlowDebuggerPanel::receiptRequested);
    connect(m_log, &FlowStepLogView::receiptRequested, this, &FlowDebuggerPanel::receiptRequested);
    // A step picked in the log is the step F9 and Rerun from here mean, as a node click is.
    connect(m_log, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (!item)
            return;
        m_chosenStep = item->data(FlowStepLogView::StepColumn, FlowStepLogView::StepIndexRole).toInt();
        updateActions();
    });
    // A server's row arrives after it was shown: Step and Continue follow its plan.
    connect(m_visualizer, &FlowVisualizerView::planChanged, this, &FlowDebuggerPanel::updateActions);
    connect(m_visualizer, &FlowVisualizerView::stepActivated, this, [this](int step) {
        m_chosenStep = step;
        showVariables(step);
        updateActions();
    });
    m_tick.setInterval(tickMs);
    connect(&m_tick, &QTimer::timeout, this, &FlowDebuggerPanel::refresh);
    updateActions();
}

QAction *FlowDebuggerPanel::addToolAction(const QString &text, const QKeySequence &shortcut,
                                          void (FlowDebuggerPanel::*slot)())
{
    auto *action = new QAction(text, this);
    action->setShortcut(shortcut);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    if (!shortcut.isEmpty())
        action->setToolTip(u"%1 (%2)"_s.arg(text, shortcut.toString(QKeySequence::NativeText)));
    connect(action, &QAction::triggered, this, slot);
    addAction(action);
    return action;
}

QWidget *FlowDebuggerPanel::buildToolBar()
{
    auto *bar = new QToolBar;
    bar->addActions({m_step, m_continue, m_breakpoint, m_abort, m_rerun});
    bar->addSeparator();
    bar->addWidget(new QLabel(tr("Body ")));
    m_body->setPlaceholderText(tr("the flow's body: $1|$2|…"));
    bar->addWidget(m_body);
    return bar;
}

void FlowDebuggerPanel::setDocument(DirectoryDocument *document)
{
    resetRun();
    m_document = document;
    m_visualizer->setDocument(document);
    m_session->setRowLookup([this](const QString &key) -> std::optional<Row> {
        return m_document ? m_document->row(key) : std::nullopt;
    });
}

void FlowDebuggerPanel::showRow(const QString &key)
{
    if (key != m_visualizer->key()) {
        // Still this directory: the run ends as an abort, receipted as one.
        m_session->abort();
        resetRun();
    }
    m_visualizer->showRow(key);
    loadFlow();
    updateActions();
}

void FlowDebuggerPanel::setBody(const QString &body)
{
    m_body->setText(body);
}

QString FlowDebuggerPanel::key() const
{
    return m_visualizer->key();
}

QString FlowDebuggerPanel::status() const
{
    return m_status->text();
}

// The session takes the flow as drawn now; false (and why, in the status) when it cannot run.
bool FlowDebuggerPanel::loadFlow()
{
    if (const auto &error = m_visualizer->parseError()) {
        setStatus(tr("Cannot run: %1").arg(error->describe()));
        return false;
    }
    if (m_visualizer->plan().steps.isEmpty())
        return false;
    m_session->setFlow(m_visualizer->key(), m_visualizer->plan(), m_body->text());
    m_visualizer->setBreakpoints(m_session->breakpoints());
    return true;
}

void FlowDebuggerPanel::resetRun()
{
    if (FlowExecutor *run = m_session->run())
        run->disconnect(this);
    m_session->reset();
    m_tick.stop();
    m_chosenStep = -1;
    m_visualizer->clearRunState();
    m_visualizer->setBreakpoints({});
    m_variables->clear();
    m_log->setSteps({});
    m_timeline->setSteps({}, 0);
    // The body is the flow's arguments: another flow takes others.
    m_body->clear();
    setStatus(QString());
    m_receiptNote->clear();
    m_receiptNote->hide();
    updateActions();
}

bool FlowDebuggerPanel::confirmNewRun()
{
    if (!m_gate)
        return true;
    const std::optional<Row> row = m_document ? m_document->row(key()) : std::nullopt;
    // Unread (a server that did not answer): what the run would reach is unknown, so no run.
    if (!row) {
        setStatus(tr("Not run: %1 could not be read to see what it would change.").arg(key()));
        return false;
    }
    if (m_gate->mayRun(*row, *m_document))
        return true;
    setStatus(WorldEffectGate::notConfirmed(key()));
    return false;
}

void FlowDebuggerPanel::stepOnce()
{
    if (m_session->isActive())
        m_session->step();
    else if (loadFlow() && confirmNewRun())
        m_session->step();
}

void FlowDebuggerPanel::continueRun()
{
    if (m_session->isActive())
        m_session->resume();
    else if (loadFlow() && confirmNewRun())
        m_session->resume();
}

void FlowDebuggerPanel::toggleBreakpoint()
{
    const FlowExecutor *run = m_session->run();
    const bool paused = run && run->state() == FlowExecutor::State::Paused;
    const int step = m_chosenStep >= 0 ? m_chosenStep : paused ? run->currentStep() : 0;
    if (!m_session->isActive() && !loadFlow())
        return;
    m_session->toggleBreakpoint(step);
    m_visualizer->setBreakpoints(m_session->breakpoints());
}

void FlowDebuggerPanel::abortRun()
{
    m_session->abort();
}

void FlowDebuggerPanel::rerunFromChosen()
{
    const FlowExecutor *run = m_session->run();
    const bool paused = run && run->state() == FlowExecutor::State::Paused;
    const int step = m_chosenStep >= 0 ? m_chosenStep : paused ? run->currentStep() : 0;
    if (!loadFlow() || !confirmNewRun())
        return;
    if (!m_session->rerunFrom(step))
        setStatus(tr("Rerun from step %1 needs steps 1 to %2 done in the last run").arg(step + 1).arg(step));
}

void FlowDebuggerPanel::watch(FlowExecutor *run)
{
    m_receiptNote->clear();
    m_receiptNote->hide();
    m_visualizer->clearRunState();
    m_chosenStep = -1;
    connect(run, &FlowExecutor::stepPrepared, this, &FlowDebuggerPanel::refresh);
    connect(run, &FlowExecutor::callFinished, this, &FlowDebuggerPanel::refresh);
    connect(run, &FlowExecutor::stepStarted, this, [this, run](int step) {
        setStatus(tr("Running step %1: %2").arg(step + 1).arg(run->steps()[step].calls.value(0).key));
        showVariables(step);
        m_tick.start();
        refresh();
    });
    connect(run, &FlowExecutor::paused, this, [this, run](int step) {
        m_tick.stop();
        setStatus(tr("Paused before step %1: %2").arg(step + 1).arg(run->steps()[step].calls.value(0).key));
        showVariables(step);
        refresh();
    });
    connect(run, &FlowExecutor::finished, this, [this, run](const QString &output) {
        m_tick.stop();
        setStatus(finishedText(*run, output));
        showVariables(lastReachedStep(run->steps()));
        m_variables->showFlowOutput(output);
        refresh();
    });
    refresh();
}

void FlowDebuggerPanel::refresh()
{
    const FlowExecutor *run = m_session->run();
    if (!run)
        return;
    const QList<FlowStepState> &steps = run->steps();
    for (const FlowStepState &step : steps) {
        for (int b = 0; b < step.calls.size(); ++b)
            m_visualizer->setNodeState(step.index, b, nodeState(step.calls[b].phase),
                                       noteFor(step, step.calls[b]));
    }
    m_visualizer->setCurrentStep(run->state() == FlowExecutor::State::Paused ? run->currentStep() : -1);
    m_log->setSteps(steps);
    m_timeline->setSteps(steps, run->elapsedUs());
    updateActions();
}

void FlowDebuggerPanel::showVariables(int step)
{
    const FlowExecutor *run = m_session->run();
    if (!run || step < 0 || step >= run->steps().size())
        return m_variables->clear();
    m_variables->showStep(run->steps()[step], run->plan().steps[step]);
}

void FlowDebuggerPanel::updateActions()
{
    const FlowExecutor *run = m_session->run();
    const bool paused = run && run->state() == FlowExecutor::State::Paused;
    const bool canStart = !m_session->isActive() || paused;
    const bool isFlow = !m_visualizer->plan().steps.isEmpty();
    m_step->setEnabled(canStart && isFlow);
    m_continue->setEnabled(canStart && isFlow);
    m_abort->setEnabled(m_session->isActive());
    // Window-wide only while a run goes, so F5 and F10 never start one from the editor.
    const Qt::ShortcutContext context =
        m_session->isActive() ? Qt::WindowShortcut : Qt::WidgetWithChildrenShortcut;
    for (QAction *action : {m_step, m_continue, m_breakpoint, m_abort})
        action->setShortcutContext(context);
    m_rerun->setEnabled(run != nullptr);
    const int rerunStep = m_chosenStep >= 0 ? m_chosenStep : paused ? run->currentStep() : 0;
    const QString rerunKey = m_visualizer->plan().steps.value(rerunStep).calls.value(0).key;
    m_rerun->setText(rerunKey.isEmpty() ? tr("Rerun from here")
                                        : tr("Rerun from Step %1 (%2)").arg(rerunStep + 1).arg(rerunKey));
    m_breakpoint->setEnabled(!m_visualizer->plan().steps.isEmpty());
}

void FlowDebuggerPanel::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

QString FlowDebuggerPanel::receiptNote() const
{
    return m_receiptNote->isHidden() ? QString() : m_receiptNote->text();
}

void FlowDebuggerPanel::showRecorded(const InvocationOutcome &outcome)
{
    const QString id = outcome.receipt->invocationId.toHtmlEscaped();
    m_receiptNote->setTextFormat(Qt::RichText);
    m_receiptNote->setText(
        tr("Flow receipt: <a href=\"%1\">%1</a>, %2 ms active; the steps this run made are under it")
            .arg(id)
            .arg(outcome.receipt->durationMs));
    m_receiptNote->show();
}

void FlowDebuggerPanel::showNotRecorded(const QString &why)
{
    // The reason may quote a server's words.
    m_receiptNote->setTextFormat(Qt::PlainText);
    m_receiptNote->setText(why);
    m_receiptNote->show();
}
