#pragma once

#include <QWidget>

class DirectorySession;
class Prompter;
class QStackedLayout;
class QLabel;
class ReceiptViewer;
class RemoteCallsView;

// The Receipts dock's content: the ReceiptViewer of whichever directory the session has
// open (a viewer belongs to one ledger, so a reopen builds a new one), kept current as
// calls made through the session finish. A directory on a server has no ledger here: the
// dock then lists the calls made from this window with the server's confirm answers
// (RemoteCallsView).
class ReceiptsPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReceiptsPane)

public:
    ReceiptsPane(DirectorySession &session, Prompter &prompter, QWidget *parent = nullptr);

    // The local ledger's viewer once the pane has been shown or asked for a receipt.
    ReceiptViewer *viewer() const { return m_viewer; }
    RemoteCallsView *remoteCalls() const { return m_remoteCalls; }

public slots:
    void verifyReceiptFile();
    void showInvocation(const QString &invocationId);
    // The signing key changed (a new key, a key file put back): the viewer looks again.
    void recheckSigningKey();

signals:
    void rowRequested(const QString &key);
    void signingKeyMade();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void followSession();
    void buildViewer();

    DirectorySession &m_session;
    Prompter &m_prompter;
    QStackedLayout *m_stack;
    QLabel *m_noDirectory;
    ReceiptViewer *m_viewer = nullptr;
    RemoteCallsView *m_remoteCalls = nullptr;
    bool m_viewerDue = false;
};
