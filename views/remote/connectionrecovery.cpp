#include "views/remote/connectionrecovery.h"

#include "dispatch/core/storeerror.h"
#include "models/directorydocument.h"
#include "views/remote/connectionmonitor.h"
#include "views/remote/offlinebanner.h"

#include <QTimer>

ConnectionRecovery::ConnectionRecovery(ConnectionMonitor &monitor, OfflineBanner &banner,
                                       std::function<bool()> save, QObject *parent)
    : QObject(parent), m_monitor(monitor), m_banner(banner), m_save(std::move(save))
{
    connect(&m_monitor, &ConnectionMonitor::changed, this, &ConnectionRecovery::follow);
    connect(&m_monitor, &ConnectionMonitor::backOnline, this, &ConnectionRecovery::onBackOnline);
    connect(&m_banner, &OfflineBanner::retryRequested, this, &ConnectionRecovery::retry);
    follow();
}

void ConnectionRecovery::setDocument(DirectoryDocument *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_savePending = false;
    if (m_document) {
        connect(m_document, &DirectoryDocument::saveFailed, this, &ConnectionRecovery::onSaveFailed);
        connect(m_document, &DirectoryDocument::saved, this, [this] {
            m_savePending = false;
            follow();
        });
    }
    follow();
}

void ConnectionRecovery::retry()
{
    if (m_savePending && m_document && m_document->isModified()) {
        m_save();
        return;
    }
    m_monitor.pingNow();
}

// The failed request's own answer reaches the monitor a moment later; the banner need not wait.
void ConnectionRecovery::onSaveFailed(const StoreError &error)
{
    if (error.kind == StoreError::Kind::Unreachable) {
        m_savePending = true;
        const QString why = m_monitor.failure();
        m_banner.showProblem(OfflineBanner::Problem::Unreachable,
                             unreachableText(why.isEmpty() ? tr("no answer") : why));
    } else if (error.kind == StoreError::Kind::Unauthorized) {
        m_savePending = true;
        m_banner.showProblem(OfflineBanner::Problem::KeyRefused, keyRefusedText());
    }
}

void ConnectionRecovery::follow()
{
    switch (m_monitor.state()) {
    case ConnectionMonitor::State::Offline:
        m_banner.showProblem(OfflineBanner::Problem::Unreachable, unreachableText(m_monitor.failure()));
        break;
    case ConnectionMonitor::State::KeyRefused:
        m_banner.showProblem(OfflineBanner::Problem::KeyRefused, keyRefusedText());
        break;
    case ConnectionMonitor::State::Online:
    case ConnectionMonitor::State::None:
        m_banner.clear();
        break;
    }
}

void ConnectionRecovery::onBackOnline()
{
    // Called from the monitor's signal; the save itself waits for the event loop.
    if (m_savePending)
        QTimer::singleShot(0, this, [this] {
            if (m_savePending && m_document && m_document->isModified())
                m_save();
        });
}

QString ConnectionRecovery::unreachableText(const QString &why) const
{
    const QString server = m_monitor.name().isEmpty()
                               ? m_monitor.location()
                               : tr("%1 (%2)").arg(m_monitor.name(), m_monitor.location());
    const QString text = tr("Cannot reach the server %1: %2.").arg(server, why);
    if (m_savePending)
        return text + u' '
               + tr("Nothing was saved and nothing is lost: your edits are kept and saved as soon as the "
                    "server "
                    "answers again (or press Retry).");
    return text + u' ' + tr("Your unsaved edits are kept. Capdesk keeps checking; Retry checks now.");
}

QString ConnectionRecovery::keyRefusedText() const
{
    const QString server = m_monitor.name().isEmpty() ? m_monitor.location() : m_monitor.name();
    return tr("The server %1 refused the owner key (401 unauthorized), so nothing can be saved. Your edits "
              "are "
              "kept. Change the key, then Retry.")
        .arg(server);
}
