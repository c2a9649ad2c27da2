#include "views/receipts/receiptspane.h"

#include "models/directorydocument.h"
#include "views/common/directorysession.h"
#include "views/receipts/receiptviewer.h"
#include "views/remote/remotecallsview.h"

#include <QLabel>
#include <QStackedLayout>

ReceiptsPane::ReceiptsPane(DirectorySession &session, Prompter &prompter, QWidget *parent)
    : QWidget(parent), m_session(session), m_prompter(prompter), m_stack(new QStackedLayout(this)),
      m_noDirectory(new QLabel(tr("No directory is open.")))
{
    m_noDirectory->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(m_noDirectory);
    connect(&m_session, &DirectorySession::documentChanged, this, &ReceiptsPane::followSession);
    connect(&m_session, &DirectorySession::invocationFinished, this,
            [this](const InvocationRequest &request, const InvocationOutcome &outcome) {
                if (m_viewer && m_viewer->isVisible())
                    m_viewer->reload();
                if (m_remoteCalls)
                    m_remoteCalls->record(request, outcome);
            });
    followSession();
}

void ReceiptsPane::followSession()
{
    if (m_viewer)
        m_viewer->deleteLater();
    m_viewer = nullptr;
    if (m_remoteCalls)
        m_remoteCalls->deleteLater();
    m_remoteCalls = nullptr;
    m_viewerDue = false;
    if (m_session.connection()) {
        m_remoteCalls = new RemoteCallsView(m_session.connection());
        connect(m_remoteCalls, &RemoteCallsView::rowRequested, this, &ReceiptsPane::rowRequested);
        m_stack->addWidget(m_remoteCalls);
        m_stack->setCurrentWidget(m_remoteCalls);
        return;
    }
    if (!m_session.ledger())
        return;
    // A viewer's widgets are not needed for the window's first frame: behind another
    // dock's tab, it is built once the dock is shown or a receipt is asked for.
    m_viewerDue = true;
    if (isVisible())
        buildViewer();
}

void ReceiptsPane::buildViewer()
{
    m_viewerDue = false;
    m_viewer = new ReceiptViewer(m_session.ledger(), m_prompter);
    connect(m_viewer, &ReceiptViewer::rowRequested, this, &ReceiptsPane::rowRequested);
    connect(m_viewer, &ReceiptViewer::signingKeyMade, this, &ReceiptsPane::signingKeyMade);
    m_stack->addWidget(m_viewer);
    m_stack->setCurrentWidget(m_viewer);
}

void ReceiptsPane::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_viewerDue)
        buildViewer();
}

void ReceiptsPane::verifyReceiptFile()
{
    if (m_viewerDue)
        buildViewer();
    if (m_viewer)
        m_viewer->verifyReceiptFile();
}

void ReceiptsPane::showInvocation(const QString &invocationId)
{
    if (m_viewerDue)
        buildViewer();
    if (m_viewer)
        m_viewer->showInvocation(invocationId);
}

void ReceiptsPane::recheckSigningKey()
{
    if (m_viewer)
        m_viewer->recheckSigningKey();
}
