#include "views/shell/mainwindow.h"

#include "models/directorydocument.h"
#include "models/lintcontroller.h"
#include "views/common/deferredcontent.h"
#include "views/common/directorysession.h"
#include "views/common/messageboxprompter.h"
#include "views/common/typeicons.h"
#include "views/editor/conflictresolver.h"
#include "views/editor/roweditorpanel.h"
#include "views/flows/flowdebuggerpanel.h"
#include "views/flows/flowpane.h"
#include "views/invoke/callpanel.h"
#include "views/lint/lintpanel.h"
#include "views/receipts/receiptspane.h"
#include "views/remote/connectionmonitor.h"
#include "views/remote/connectionrecovery.h"
#include "views/remote/connectionstatuslabel.h"
#include "views/remote/offlinebanner.h"
#include "views/shell/connectactions.h"
#include "views/shell/databaseopenactions.h"
#include "views/shell/editactions.h"
#include "views/shell/fileactions.h"
#include "views/shell/helpactions.h"
#include "views/shell/ledgeractions.h"
#include "views/shell/mcpactions.h"
#include "views/shell/messagelog.h"
#include "views/shell/paletteactions.h"
#include "views/shell/runactions.h"
#include "views/shell/secretactions.h"
#include "views/table/categorypanel.h"
#include "views/table/directorytableview.h"
#include "views/table/filterbar.h"
#include "views/table/rowcountlabel.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShowEvent>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace {

std::unique_ptr<Prompter> orDialogs(std::unique_ptr<Prompter> prompter, QWidget *window)
{
    return prompter ? std::move(prompter) : std::make_unique<MessageBoxPrompter>(window);
}

} // namespace

MainWindow::MainWindow(DirectorySession &session, std::unique_ptr<Prompter> prompter, QWidget *parent)
    : QMainWindow(parent), m_session(session), m_prompter(orDialogs(std::move(prompter), this)),
      m_guard(*m_prompter), m_effectGate(*m_prompter), m_categories(new CategoryPanel),
      m_filterBar(new FilterBar), m_table(new DirectoryTableView), m_editor(new RowEditorPanel),
      m_calls(new CallPanel(m_session)), m_receipts(new ReceiptsPane(m_session, *m_prompter)),
      m_flows(new FlowPane(m_session)), m_lint(new LintController(this)),
      m_lintPanel(new LintPanel(*m_prompter)), m_rowCount(new RowCountLabel),
      m_splitter(new QSplitter(Qt::Horizontal, this)),
      m_fileActions(new FileActions(m_session, *m_prompter, this)),
      m_editActions(new EditActions(m_table, *m_prompter, this)),
      m_secretActions(new SecretActions(m_session, *m_prompter, this, this)),
      m_ledgerActions(new LedgerActions(m_session, *m_prompter, this, this)),
      m_mcpActions(new McpActions(m_session, this, this)),
      m_connectActions(new ConnectActions(m_session, *m_prompter, *m_fileActions, this, this)),
      m_databaseOpenActions(new DatabaseOpenActions(*m_fileActions, this, this)),
      m_monitor(new ConnectionMonitor(this)), m_banner(new OfflineBanner(this)),
      m_conflicts(new ConflictResolver(
          this, [this] { return m_editActions->save(); }, this)),
      m_recovery(new ConnectionRecovery(
          *m_monitor, *m_banner, [this] { return m_editActions->save(); }, this)),
      m_messages(new MessageLog(this)), m_revealer(m_filterBar, m_categories, m_table)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(TypeIcons::application());
    buildLayout();
    buildMenus();
    buildRunAndHelpMenus();
    m_calls->setWorldEffectGate(&m_effectGate);
    m_flows->debugger()->setWorldEffectGate(&m_effectGate);

    connect(&m_session, &DirectorySession::documentChanged, this, &MainWindow::showDocument);
    connect(m_table, &DirectoryTableView::currentKeyChanged, m_editor, &RowEditorPanel::showRow);
    connect(m_table, &DirectoryTableView::currentKeyChanged, m_calls, &CallPanel::showRow);
    connect(m_editor, &RowEditorPanel::shownKeyChanged, m_calls, &CallPanel::showRow);
    connect(m_editor, &RowEditorPanel::shownKeyChanged, m_table, &DirectoryTableView::selectKey);
    connect(m_table, &DirectoryTableView::currentKeyChanged, m_flows, &FlowPane::showRow);
    connect(m_editor, &RowEditorPanel::shownKeyChanged, m_flows, &FlowPane::showRow);
    connect(m_flows, &FlowPane::keyActivated, this, &MainWindow::showKey);
    connect(m_flows, &FlowPane::receiptRequested, this, [this](const QString &invocationId) {
        m_receiptDock->show();
        m_receiptDock->raise();
        m_receipts->showInvocation(invocationId);
    });
    connect(m_receipts, &ReceiptsPane::rowRequested, this, &MainWindow::showKey);
    connect(m_receipts, &ReceiptsPane::signingKeyMade, m_ledgerActions, &LedgerActions::checkSigningKey);
    // A new key made from the menu clears a key problem the Receipts dock shows.
    connect(m_ledgerActions, &LedgerActions::signingKeyStatusChanged, m_receipts,
            &ReceiptsPane::recheckSigningKey);
    connect(m_paletteActions, &PaletteActions::rowChosen, this, &MainWindow::showKey);
    connect(m_editActions, &EditActions::undoChangedRow, this, &MainWindow::showKey);
    connect(m_filterBar, &FilterBar::moveIntoResults, m_table, &DirectoryTableView::focusRows);
    m_lintPanel->setController(m_lint);
    m_editor->setLintController(m_lint);
    m_editActions->setLintController(m_lint);
    auto showField = [this](const QString &key, const QString &field) {
        showKey(key);
        m_editor->focusField(field);
    };
    connect(m_lintPanel, &LintPanel::findingActivated, this, showField);
    connect(m_editActions, &EditActions::fixRequested, this, showField);
    connect(m_editActions, &EditActions::rowCreated, this, [this](const QString &key) {
        showKey(key);
        m_editor->focusKey();
    });
    connect(m_editActions, &EditActions::aboutToSave, m_editor, &RowEditorPanel::commitPendingEdits);
    connect(m_fileActions, &FileActions::quitRequested, this, &QWidget::close);
    wireServer();
    buildStatusBar();

    showDocument(m_session.document());
    restoreSettings();
}

MainWindow::~MainWindow() = default;

// Menu hints pass through the status bar too; only these messages reach View → Messages.
void MainWindow::showStatus(const QString &message, int timeoutMs)
{
    statusBar()->showMessage(message, timeoutMs);
    m_messages->add(message);
}

void MainWindow::showKey(const QString &key)
{
    if (m_revealer.reveal(key) == RowRevealer::Outcome::FiltersCleared)
        showStatus(tr("Filters cleared to show %1.").arg(key), 8000);
    m_editor->showRow(key);
}

void MainWindow::wireServer()
{
    connect(m_banner, &OfflineBanner::changeKeyRequested, m_connectActions, &ConnectActions::changeKey);
    connect(m_connectActions, &ConnectActions::keyChanged, m_recovery, &ConnectionRecovery::retry);
    connect(m_connectActions, &ConnectActions::keyRefused, m_monitor, &ConnectionMonitor::noteKeyRefused);
}

void MainWindow::buildStatusBar()
{
    auto showMessage = [this](const QString &message) { showStatus(message, 8000); };
    connect(m_fileActions, &FileActions::statusMessage, this, showMessage);
    connect(m_editActions, &EditActions::statusMessage, this, showMessage);
    connect(m_connectActions, &ConnectActions::statusMessage, this, showMessage);
    connect(m_databaseOpenActions, &DatabaseOpenActions::statusMessage, this, showMessage);
    connect(m_conflicts, &ConflictResolver::statusMessage, this, showMessage);
    connect(m_runActions, &RunActions::statusMessage, this, showMessage);
    statusBar()->addPermanentWidget(new ConnectionStatusLabel(*m_monitor, this));
    auto *cancelSave = new QToolButton(this);
    cancelSave->setObjectName(QStringLiteral("cancelSaveButton"));
    cancelSave->setDefaultAction(m_editActions->cancelSaveAction());
    cancelSave->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    cancelSave->setAutoRaise(true);
    // Seen only while a save is on its way to a server.
    cancelSave->setVisible(false);
    connect(m_editActions->cancelSaveAction(), &QAction::enabledChanged, cancelSave, &QWidget::setVisible);
    statusBar()->addPermanentWidget(cancelSave);
    statusBar()->addPermanentWidget(m_rowCount);
    auto addStatus = [this](const QString &name) {
        auto *label = new QLabel(this);
        label->setObjectName(name);
        statusBar()->addPermanentWidget(label);
        return [label](const QString &text, const QString &detail) {
            label->setText(text);
            label->setToolTip(detail);
        };
    };
    connect(m_secretActions, &SecretActions::keychainStatusChanged, this,
            addStatus(QStringLiteral("keychainStatus")));
    connect(m_ledgerActions, &LedgerActions::signingKeyStatusChanged, this,
            addStatus(QStringLiteral("signingKeyStatus")));
    connect(
        m_lint, &LintController::registryTotalChanged, this,
        [show = addStatus(QStringLiteral("registryTotal"))](const QString &text) { show(text, QString()); });
    // Both ask the keychain without waiting for it: a keychain waiting for an unlock only
    // delays their labels.
    m_secretActions->checkKeychain();
    m_ledgerActions->checkSigningKey();
}

QDockWidget *MainWindow::addBottomDock(const QString &title, const QString &name, QWidget *content)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    // Not floatable: a drag that meant to resize the dock area would tear the dock out.
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
    // Squeezed below what its panel needs (a laptop screen, the editor's findings showing),
    // a dock scrolls: otherwise its minimum would push the window past the screen. A panel
    // behind another dock's tab waits to be laid out until its tab is chosen.
    auto *scroll = new QScrollArea(dock);
    auto *holder = new DeferredContent(content);
    holder->followDock(dock);
    scroll->setWidget(holder);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumHeight(dockMinimumHeight);
    dock->setWidget(scroll);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    return dock;
}

void MainWindow::buildLayout()
{
    auto *tablePane = new QWidget(m_splitter);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_filterBar);
    tableLayout->addWidget(m_table, 1);

    m_splitter->addWidget(m_categories);
    m_splitter->addWidget(tablePane);
    m_splitter->addWidget(m_editor);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setStretchFactor(2, 2);
    m_splitter->setSizes({180, 830, 430});
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setContentsMargins(6, 6, 6, 0);
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_banner);
    centralLayout->addWidget(m_splitter, 1);
    setCentralWidget(central);

    m_callDock = addBottomDock(tr("Shape and invoke"), QStringLiteral("callDock"), m_calls);
    m_flowDock = addBottomDock(tr("Flow"), QStringLiteral("flowDock"), m_flows);
    m_receiptDock = addBottomDock(tr("Receipts"), QStringLiteral("receiptDock"), m_receipts);
    m_lintDock = addBottomDock(tr("Lint"), QStringLiteral("lintDock"), m_lintPanel);
    // Tabs above the docks, where a new user looks, not under them by the status bar.
    setTabPosition(Qt::BottomDockWidgetArea, QTabWidget::North);
    tabifyDockWidget(m_callDock, m_flowDock);
    tabifyDockWidget(m_flowDock, m_receiptDock);
    tabifyDockWidget(m_receiptDock, m_lintDock);
    m_callDock->raise();
}

void MainWindow::buildMenus()
{
    FileActions *files = m_fileActions;
    EditActions *edits = m_editActions;

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addActions({files->newAction(), files->openAction(), m_databaseOpenActions->openAction()});
    file->addMenu(files->recentMenu());
    file->addSeparator();
    file->addActions({m_connectActions->connectAction(), m_connectActions->disconnectAction()});
    file->addSeparator();
    file->addActions({edits->saveAction(), edits->cancelSaveAction(), edits->revertAction()});
    file->addSeparator();
    file->addActions({files->importAction(), files->exportAction()});
    file->addAction(m_ledgerActions->exportPublicKeyAction());
    file->addAction(m_ledgerActions->newSigningKeyAction());
    file->addSeparator();
    file->addAction(files->quitAction());

    auto *find = new QAction(QIcon::fromTheme(QStringLiteral("edit-find")), tr("&Find…"), this);
    find->setShortcut(QKeySequence::Find);
    connect(find, &QAction::triggered, m_filterBar, &FilterBar::focusSearch);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addActions({edits->undoAction(), edits->redoAction()});
    edit->addSeparator();
    edit->addMenu(edits->newRowMenu());
    edit->addActions({edits->duplicateAction(), edits->deleteAction()});
    edit->addSeparator();
    edit->addActions({edits->enableAction(), edits->disableAction()});
    edit->addSeparator();
    edit->addAction(find);

    m_paletteActions = new PaletteActions(menuBar(), this);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addActions(m_paletteActions->actions());
    view->addSeparator();
    view->addActions({m_callDock->toggleViewAction(), m_flowDock->toggleViewAction(),
                      m_receiptDock->toggleViewAction(), m_lintDock->toggleViewAction()});
    view->addSeparator();
    auto *messages = view->addAction(tr("&Messages"));
    messages->setObjectName(QStringLiteral("messagesAction"));
    messages->setStatusTip(tr("Every message the status bar showed, in full"));
    connect(messages, &QAction::triggered, this, [this] {
        m_messages->show();
        m_messages->raise();
    });
    auto *reload = view->addAction(QIcon::fromTheme(QStringLiteral("view-refresh")), tr("&Reload"));
    reload->setObjectName(QStringLiteral("reloadAction"));
    reload->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    reload->setStatusTip(tr("Read the rows again now; unsaved edits are kept"));
    connect(reload, &QAction::triggered, this, [this] {
        if (DirectoryDocument *document = m_session.document()) {
            if (const StoreError error = document->reload(); error.isError())
                showStatus(tr("Cannot read the directory: %1").arg(error.message));
        }
    });
    QMenu *toolsMenu = menuBar()->addMenu(tr("&Tools"));
    toolsMenu->addActions(
        {m_secretActions->secretsAction(), m_ledgerActions->tokensAction(), m_mcpActions->toolsAction()});
    auto *verify = toolsMenu->addAction(tr("&Verify a Receipt File…"));
    verify->setObjectName(QStringLiteral("verifyReceiptFileAction"));
    connect(verify, &QAction::triggered, this, [this] {
        m_receiptDock->show();
        m_receiptDock->raise();
        m_receipts->verifyReceiptFile();
    });
    // A server keeps its signing keys: a receipt file is checked with its exported key
    // (capdeskctl verify-receipt) or in a window on the local file.
    auto followLedger = [this, verify] { verify->setEnabled(m_session.ledger() != nullptr); };
    connect(&m_session, &DirectorySession::documentChanged, verify, followLedger);
    followLedger();

    QToolBar *tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->addAction(edits->newRowAction());
    if (auto *button = qobject_cast<QToolButton *>(tools->widgetForAction(edits->newRowAction())))
        button->setPopupMode(QToolButton::MenuButtonPopup);
    tools->addActions({edits->duplicateAction(), edits->deleteAction()});
    tools->addSeparator();
    tools->addActions({edits->enableAction(), edits->disableAction()});
    tools->addSeparator();
    tools->addActions({edits->undoAction(), edits->redoAction()});
    tools->addSeparator();
    tools->addAction(edits->saveAction());
}

void MainWindow::buildRunAndHelpMenus()
{
    m_runActions = new RunActions(m_calls, m_callDock, m_flows, m_flowDock, this);
    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runActions->invokeAction());
    run->addSeparator();
    run->addActions(m_runActions->debugActions());

    m_helpActions = new HelpActions(menuBar(), this);
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addActions({m_helpActions->shortcutsAction(), m_helpActions->aboutAction()});
}

CommandPalette *MainWindow::commandPalette() const
{
    return m_paletteActions->palette();
}

void MainWindow::showDocument(DirectoryDocument *document)
{
    // The editor first, so it is ready when the table selects its first row; the filters
    // before the table, so that first row is one the filters let through.
    m_editor->setDocument(document);
    m_editor->setHistory(m_session.history());
    m_calls->setDocument(document, m_session.location());
    m_paletteActions->setDocument(document);
    m_flows->setDocument(document);
    m_lint->setDocument(document, m_session.builtinsAreLocal());
    m_lint->lintAllWhenLoaded();
    m_filterBar->setDocument(document);
    m_categories->setDocument(document);
    m_table->setDocument(document);
    m_rowCount->setDocument(document);
    m_editActions->setDocument(document);
    m_editor->setReadOnlyColumns(m_session.readOnlyColumns());
    m_monitor->watch(m_session.connection(), m_session.serverName());
    m_conflicts->setDocument(document);
    m_recovery->setDocument(document);

    setWindowTitle(m_session.windowTitle());
    setWindowModified(document && document->isModified());
    if (document) {
        connect(document, &DirectoryDocument::modifiedChanged, this, &QWidget::setWindowModified);
        connect(document, &DirectoryDocument::changedElsewhere, this, [this](const QStringList &keys) {
            const QString shown = QLocale().createSeparatedList(keys.mid(0, 3))
                                  + (keys.size() > 3 ? QStringLiteral(", …") : QString());
            showStatus(tr("Changed elsewhere, now shown: %1").arg(shown), 8000);
        });
        connect(document, &DirectoryDocument::readFailed, this, [this](const QString &message) {
            showStatus(tr("Cannot read the directory: %1").arg(message));
        });
    }
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("mainWindow"));
    if (!restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray()))
        resize(QSize(1440, 900));
    fitToScreen();
    if (!restoreState(settings.value(QStringLiteral("state")).toByteArray()))
        resizeDocks({m_callDock}, {height() * 3 / 10}, Qt::Vertical);
    m_splitter->restoreState(settings.value(QStringLiteral("splitter")).toByteArray());
    m_editor->restoreLayout(settings.value(QStringLiteral("editor")).toByteArray());
    m_table->restoreHeaderState(settings.value(QStringLiteral("tableHeader")).toByteArray());
}

// The first size and a remembered one alike are cut to the screen the window opens on,
// so the status bar and the dock tabs are never off screen (a laptop at 1280×800, or a
// geometry saved on a larger monitor).
void MainWindow::fitToScreen()
{
    const QRect available = screen()->availableGeometry();
    if (isMaximized() || isFullScreen() || available.isEmpty())
        return;
    // The frame is known only once the window is shown; before that it counts as none.
    const QSize frame = frameGeometry().size() - size();
    const QSize size = this->size().boundedTo(available.size() - frame);
    resize(size);
    QRect placed(frameGeometry().topLeft(), size + frame);
    if (!available.contains(placed)) {
        placed.moveCenter(available.center());
        placed.moveTopLeft(
            QPoint(std::max(placed.left(), available.left()), std::max(placed.top(), available.top())));
        move(placed.topLeft());
    }
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // A window manager adds its frame after the show event; fit again once it has.
    if (!std::exchange(m_fittedWithFrame, true))
        QTimer::singleShot(0, this, &MainWindow::fitToScreen);
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("mainWindow"));
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState());
    settings.setValue(QStringLiteral("splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("editor"), m_editor->saveLayout());
    settings.setValue(QStringLiteral("tableHeader"), m_table->headerState());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_editor->commitPendingEdits();
    if (!m_guard.mayDrop(m_session.document(), [this] { close(); })) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}
