#pragma once

#include <QJsonObject>
#include <QPointer>
#include <QWidget>

#include <memory>

class DirectoryLedger;
struct Receipt;
class DurationPlot;
class ElidedLabel;
class Prompter;
class QTabWidget;
class QTableView;
class QTimer;
class QTreeView;
class ReceiptDetailView;
class ReceiptFileVerificationDialog;
class ReceiptFilterBar;
class ReceiptTableModel;
class ReceiptTreeModel;
class ViewportNote;
class WrappedLabel;

// The directory's signed receipts (SPEC §6): a filterable table paged from the database,
// so tens of millions of receipts open and filter at once in flat memory, the selected
// receipt's every field with its signature check and contract drift, its trace as a
// parent/child tree, and its key's durations over time (bucketed in SQL past
// kPlotPoints). The header line says where the signing key lives. The first time it is
// shown it loads by itself; reload() then adds what was written since, and while shown it
// looks for receipts other processes wrote (a server, capdeskctl) and archives they took
// every kFollowIntervalMs.
class ReceiptViewer final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReceiptViewer)

public:
    // The most points the duration plot draws; more receipts are bucketed by time.
    static constexpr int kPlotPoints = 2000;
    // How often a shown viewer looks for receipts written or archived elsewhere: one indexed
    // max(seq), and one read of the kept count and of the archives.
    static constexpr int kFollowIntervalMs = 2000;

    // File choices and errors go through `prompter`, which must outlive the viewer.
    ReceiptViewer(std::shared_ptr<DirectoryLedger> ledger, Prompter &prompter, QWidget *parent = nullptr);
    ~ReceiptViewer() override;

    QString selectedInvocation() const;
    QString headerText() const;
    // Why the signing key cannot be had, when it cannot; empty otherwise.
    QString keyProblemText() const;

    ReceiptTableModel *model() const { return m_model; }
    ReceiptTreeModel *treeModel() const { return m_treeModel; }
    ReceiptFilterBar *filterBar() const { return m_filterBar; }
    QTableView *table() const { return m_table; }
    QTreeView *tree() const { return m_tree; }
    ReceiptDetailView *detail() const { return m_detail; }
    DurationPlot *plot() const { return m_plot; }
    // The open "Verify a receipt file…" dialog, or null.
    ReceiptFileVerificationDialog *verificationDialog() const;

public slots:
    // The first call reads the newest page on a worker; each later one adds the receipts
    // written since and checks the shown one again.
    void reload();
    // Looks for the signing key again: a new key was made, or a key file put back.
    void recheckSigningKey();
    // Selects the receipt, clearing filters that hide it, and shows its details.
    void showInvocation(const QString &invocationId);
    void verifyReceiptFile();
    void copySelected();
    void exportSelected();

signals:
    // "Jump to row": the owner selects `key` in the directory table.
    void rowRequested(const QString &key);
    // The duration plot shows the selected receipt's key (it is read on a worker).
    void plotted();
    // A receipt written elsewhere (capdeskctl, a server) made the directory's first
    // signing key while this viewer looked.
    void signingKeyMade();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void configureTable();
    void keepShownSelected();
    // Selects the receipt if it is listed; false when it is not.
    bool selectListed(const QString &invocationId);
    void showDetails(const QString &invocationId);
    void showTrace(const QString &trace, const QString &invocationId);
    void plotDurations(const Receipt &receipt);
    void selectRow(int row);
    // The header's counts and cutoff, and why the list is empty when it is.
    void describeList();
    // Where the signing key lives, for the header; read again once the first receipt shows
    // up, since the call that wrote it made the key.
    void checkKeyStorage();
    QString emptyListText() const;
    // The latest archive's cutoff as shown (UTC); only while an archive was taken.
    QString archiveCutoffText() const;

    std::shared_ptr<DirectoryLedger> m_ledger;
    Prompter &m_prompter;
    ReceiptTableModel *m_model;
    ReceiptTreeModel *m_treeModel;
    ElidedLabel *m_header;
    WrappedLabel *m_keyProblem;
    ReceiptFilterBar *m_filterBar;
    QTableView *m_table;
    ViewportNote *m_emptyNote;
    ReceiptDetailView *m_detail;
    QTreeView *m_tree;
    DurationPlot *m_plot;
    enum SideTab { DetailsTab, TreeTab, PlotTab };
    QTabWidget *m_side;
    QTimer *m_follow;
    QPointer<ReceiptFileVerificationDialog> m_verification;
    QJsonObject m_shownJson; // the receipt in the detail pane, for copy and export
    QString m_keyStorage;
    QString m_pendingInvocation; // asked for before a read listed it
    bool m_keyPending = false; // no key yet when last looked
    bool m_loaded = false;
    bool m_selectFirst = false; // the first page selects its top receipt
    quint64 m_plotRequests = 0;
};
