#pragma once

#include "dispatch/receipts/receiptlogaudit.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>

class DirectoryHistory;
class QComboBox;
class QLabel;
class QPushButton;
struct Row;
class QStackedWidget;
class QTableView;
class RowDiffModel;
class RowHistoryModel;

// The History tab of the row editor: the saved versions of one row from the event log
// (SPEC §8), a field-by-field diff between any two of them (by default the previous and
// the latest), and whether the log's hash chain is intact. The chain is verified on a
// worker thread, so a log of 100,000 events never freezes the window. While hidden the
// panel does no work; it catches up when shown. "Restore this version" asks for the
// version shown as "To" to be put back as the row's draft.
class RowHistoryPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowHistoryPanel)

public:
    explicit RowHistoryPanel(QWidget *parent = nullptr);
    ~RowHistoryPanel() override;

    // Null for a directory that keeps no event log.
    void setHistory(std::shared_ptr<const DirectoryHistory> history);
    void setKey(const QString &key);
    QString key() const { return m_key; }

public slots:
    // Reads the row's versions again and re-verifies the chain (after a save).
    void reload();

    // Says what became of a restore, under the button.
    void setRestoreNote(const QString &text);
    QPushButton *restoreButton() const { return m_restore; }

signals:
    // A verification finished and its verdict is on screen.
    void chainChecked(bool intact);
    // Put `version` (the row as event `versionSeq` left it) back as the row's draft.
    void restoreRequested(const Row &version, qint64 versionSeq);

protected:
    void showEvent(QShowEvent *event) override;

private:
    struct ChainCheck
    {
        ReceiptLogAudit::Report report;
        QString readError; // set when the log could not be read at all
    };

    QWidget *buildVersions();
    void showVersions();
    void chooseVersions(int to, int from);
    void showDiff();
    void requestRestore();
    void checkChain();
    void showChainState(const ChainCheck &check);

    std::shared_ptr<const DirectoryHistory> m_history;
    QString m_key;
    bool m_stale = true;
    bool m_checkAgain = false;
    // Kept alive for the worker until its verification finishes.
    std::shared_ptr<const DirectoryHistory> m_checkedHistory;
    QFutureWatcher<ChainCheck> m_chainWatcher;

    RowHistoryModel *m_versionsModel;
    RowDiffModel *m_diff;
    QLabel *m_chainState;
    QStackedWidget *m_pages;
    QLabel *m_message;
    QTableView *m_versions;
    QComboBox *m_from;
    QComboBox *m_to;
    QTableView *m_diffView;
    QLabel *m_noDifference;
    QPushButton *m_restore;
    QLabel *m_restoreNote;
};
