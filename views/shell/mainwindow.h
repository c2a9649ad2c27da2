#pragma once

#include "views/common/prompter.h"
#include "views/common/worldeffectgate.h"
#include "views/shell/unsavedchangesguard.h"
#include "views/table/rowrevealer.h"

#include <QMainWindow>

#include <memory>

class CallPanel;
class CategoryPanel;
class CommandPalette;
class HelpActions;
class PaletteActions;
class ConflictResolver;
class ConnectActions;
class DatabaseOpenActions;
class ConnectionMonitor;
class ConnectionRecovery;
class DirectoryDocument;
class DirectorySession;
class DirectoryTableView;
class EditActions;
class FileActions;
class FilterBar;
class FlowPane;
class LedgerActions;
class McpActions;
class LintController;
class LintPanel;
class MessageLog;
class OfflineBanner;
class QDockWidget;
class QSplitter;
class RowCountLabel;
class ReceiptsPane;
class RowEditorPanel;
class RunActions;
class SecretActions;

// The window: category list, filter bar and table, and the row editor side by side.
// It only builds and wires; what the actions do lives in FileActions, EditActions and
// ConnectActions, what the panes show in the panes themselves. Against a server, the
// OfflineBanner sits on top, the status bar names the connection, and ConflictResolver and
// ConnectionRecovery take over saves that meet a conflict or no server.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    // Without a prompter the window asks with message boxes and file dialogs of its own.
    explicit MainWindow(DirectorySession &session, std::unique_ptr<Prompter> prompter = {},
                        QWidget *parent = nullptr);
    ~MainWindow() override;

    DirectoryTableView *tableView() const { return m_table; }
    RowEditorPanel *editorPanel() const { return m_editor; }
    FilterBar *filterBar() const { return m_filterBar; }
    CategoryPanel *categoryPanel() const { return m_categories; }
    CallPanel *callPanel() const { return m_calls; }
    FileActions *fileActions() const { return m_fileActions; }
    EditActions *editActions() const { return m_editActions; }
    SecretActions *secretActions() const { return m_secretActions; }
    LedgerActions *ledgerActions() const { return m_ledgerActions; }
    ReceiptsPane *receiptsPane() const { return m_receipts; }
    FlowPane *flowPane() const { return m_flows; }
    LintPanel *lintPanel() const { return m_lintPanel; }
    LintController *lintController() const { return m_lint; }
    ConnectActions *connectActions() const { return m_connectActions; }
    DatabaseOpenActions *databaseOpenActions() const { return m_databaseOpenActions; }
    ConnectionMonitor *connectionMonitor() const { return m_monitor; }
    OfflineBanner *offlineBanner() const { return m_banner; }
    ConflictResolver *conflictResolver() const { return m_conflicts; }
    ConnectionRecovery *connectionRecovery() const { return m_recovery; }
    RunActions *runActions() const { return m_runActions; }
    CommandPalette *commandPalette() const;
    MessageLog *messageLog() const { return m_messages; }
    QDockWidget *callDock() const { return m_callDock; }
    QDockWidget *flowDock() const { return m_flowDock; }

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void buildLayout();
    void buildMenus();
    void buildRunAndHelpMenus();
    // Selects `key` in the table, lifting the filters when they hide it (and saying so),
    // and shows it in the editor.
    void showKey(const QString &key);
    // On the status bar (for `timeoutMs`, 0: until the next) and in View → Messages.
    void showStatus(const QString &message, int timeoutMs = 0);
    void buildStatusBar();
    QDockWidget *addBottomDock(const QString &title, const QString &name, QWidget *content);
    void showDocument(DirectoryDocument *document);
    void wireServer();
    void restoreSettings();
    void fitToScreen();
    void saveSettings() const;

    static constexpr int dockMinimumHeight = 120;

    DirectorySession &m_session;
    std::unique_ptr<Prompter> m_prompter;
    UnsavedChangesGuard m_guard;
    WorldEffectGate m_effectGate;
    CategoryPanel *m_categories;
    FilterBar *m_filterBar;
    DirectoryTableView *m_table;
    RowEditorPanel *m_editor;
    CallPanel *m_calls;
    QDockWidget *m_callDock = nullptr;
    ReceiptsPane *m_receipts;
    QDockWidget *m_receiptDock = nullptr;
    FlowPane *m_flows;
    QDockWidget *m_flowDock = nullptr;
    LintController *m_lint;
    LintPanel *m_lintPanel;
    QDockWidget *m_lintDock = nullptr;
    RowCountLabel *m_rowCount;
    QSplitter *m_splitter;
    FileActions *m_fileActions;
    EditActions *m_editActions;
    SecretActions *m_secretActions;
    LedgerActions *m_ledgerActions;
    McpActions *m_mcpActions;
    ConnectActions *m_connectActions;
    DatabaseOpenActions *m_databaseOpenActions;
    ConnectionMonitor *m_monitor;
    OfflineBanner *m_banner;
    ConflictResolver *m_conflicts;
    ConnectionRecovery *m_recovery;
    RunActions *m_runActions = nullptr;
    PaletteActions *m_paletteActions = nullptr;
    HelpActions *m_helpActions = nullptr;
    MessageLog *m_messages;
    RowRevealer m_revealer;
    bool m_fittedWithFrame = false;
};
