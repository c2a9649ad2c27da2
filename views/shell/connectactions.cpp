#include "views/shell/connectactions.h"

#include "models/directorydocument.h"
#include "models/guithreadinbox.h"
#include "models/networkpool.h"
#include "remote/remotedirectory.h"
#include "remote/serverconnection.h"
#include "views/common/directorysession.h"
#include "views/common/prompter.h"
#include "views/remote/connectdialog.h"
#include "views/shell/fileactions.h"
#include "views/shell/recentfiles.h"

#include <QAction>
#include <QIcon>
#include <QLineEdit>
#include <QtConcurrent>

ConnectActions::ConnectActions(DirectorySession &session, Prompter &prompter, FileActions &files,
                               QWidget *dialogParent, QObject *parent)
    : QObject(parent), m_session(session), m_prompter(prompter), m_files(files), m_dialogParent(dialogParent),
      m_guard(prompter), m_connect(new QAction(QIcon::fromTheme(QStringLiteral("network-server")),
                                               tr("&Connect to Server…"), this)),
      m_disconnect(new QAction(tr("&Disconnect from Server"), this))
{
    m_connect->setObjectName(QStringLiteral("connectToServerAction"));
    m_connect->setStatusTip(
        tr("Administer a directory on a server (capdeskctl serve or any SPEC §10 server)"));
    m_disconnect->setObjectName(QStringLiteral("disconnectAction"));
    m_disconnect->setStatusTip(tr("Leave the server and open the last local directory file again"));
    connect(m_connect, &QAction::triggered, this, &ConnectActions::chooseAndConnect);
    connect(m_disconnect, &QAction::triggered, this, &ConnectActions::disconnectFromServer);
    connect(&m_session, &DirectorySession::documentChanged, this, &ConnectActions::updateActions);
    updateActions();
}

void ConnectActions::updateActions()
{
    m_disconnect->setEnabled(m_session.connection() != nullptr);
}

void ConnectActions::chooseAndConnect()
{
    ConnectDialog dialog(m_dialogParent);
    if (!m_session.serverName().isEmpty())
        dialog.selectProfile(m_session.serverName());
    if (dialog.exec() != QDialog::Accepted)
        return;
    connectTo(dialog.profile(), dialog.ownerKey(), dialog.keyWarning());
}

bool ConnectActions::connectTo(const ServerProfile &profile, const QString &ownerKey,
                               const QString &keyWarning)
{
    ServerEndpoint endpoint{profile.url, ownerKey, requestTimeoutMs, profile.caFile};
    endpoint.changePollIntervalMs = profile.pollSeconds * 1000;
    auto connection = std::make_shared<ServerConnection>(endpoint);
    const quint64 attempt = ++m_attempt;
    emit statusMessage(tr("Connecting to %1 (%2)…").arg(profile.name, connection->location()));
    // Tested before anything is dropped: a wrong address or key changes nothing here.
    QtConcurrent::run(&NetworkPool::instance(), [connection]() mutable {
        const ConnectionCheck check = connection->check();
        // Released on the GUI thread, also when this object is gone by now.
        GuiThreadInbox::post([keep = std::move(connection)] {});
        return check;
    }).then(this, [this, attempt, profile, connection, keyWarning](const ConnectionCheck &check) {
        if (attempt != m_attempt)
            return; // a newer attempt replaced this one
        m_settled = attempt;
        finishConnect(profile, connection, check, keyWarning);
    });
    return true;
}

void ConnectActions::finishConnect(const ServerProfile &profile,
                                   const std::shared_ptr<ServerConnection> &connection,
                                   const ConnectionCheck &check, const QString &keyWarning)
{
    if (!check.ok && !check.keyRefused) {
        m_prompter.showError(tr("Cannot Connect"), tr("%1: %2").arg(profile.name, check.message));
        emit connectFinished(false);
        return;
    }
    if (!m_guard.mayDrop(m_session.document(),
                         [this, attempt = m_attempt, profile, connection, check, keyWarning] {
                             if (attempt == m_attempt)
                                 finishConnect(profile, connection, check, keyWarning);
                         })) {
        emit connectFinished(false);
        return;
    }
    const StoreError error = m_session.open(RemoteDirectory::over(connection), profile.name, connection);
    if (error.isError()) {
        m_prompter.showError(tr("Cannot Connect"), error.message);
        emit connectFinished(false);
        return;
    }
    if (keyWarning.isEmpty())
        emit statusMessage(tr("Connected to %1 (%2)").arg(profile.name, check.message));
    else
        emit statusMessage(tr("Connected; the key is used for this session only: %1").arg(keyWarning));
    if (check.keyRefused)
        emit keyRefused();
    emit connectFinished(true);
}

void ConnectActions::connectAtStart(const QString &profileOrUrl)
{
    std::optional<ServerProfile> profile = ServerProfileStore::profile(profileOrUrl);
    const QUrl url = QUrl::fromUserInput(profileOrUrl);
    if (!profile && ServerProfileStore::urlProblem(url).isEmpty())
        profile = ServerProfileStore::profileForUrl(url);
    if (profile) {
        emit statusMessage(tr("Reading the key of %1 from the keychain\u2026").arg(profile->name));
        ServerProfileStore::ownerKeyAsync(
            profile->name, this, [this, profile = *profile](const KeychainStore::Read &key) {
                connectTo(profile, key.status == KeychainStore::Read::Status::Found
                                       ? key.value
                                       : qEnvironmentVariable("CAPDESK_TERMINAL_KEY"));
            });
        return;
    }
    if (!ServerProfileStore::urlProblem(url).isEmpty()) {
        m_prompter.showError(
            tr("Cannot Connect"),
            tr("%1 is neither a saved server profile nor a server address.").arg(profileOrUrl));
        return;
    }
    connectTo({url.host(), url, qEnvironmentVariable("CAPDESK_CA_FILE")},
              qEnvironmentVariable("CAPDESK_TERMINAL_KEY"));
}

bool ConnectActions::disconnectFromServer()
{
    if (!m_session.connection())
        return false;
    const QString recent = RecentFiles::list().value(0);
    if (!recent.isEmpty())
        return m_files.openPath(recent);
    return m_guard.mayDrop(m_session.document()) && m_files.openAtStart(QString());
}

void ConnectActions::changeKey()
{
    const std::shared_ptr<ServerConnection> &connection = m_session.connection();
    if (!connection)
        return;
    ConnectDialog dialog(m_dialogParent);
    dialog.selectProfile(m_session.serverName());
    if (dialog.profile().url.isEmpty()) // opened by URL, never saved as a profile
        dialog.urlEdit()->setText(connection->location());
    dialog.focusKey();
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ServerProfile chosen = dialog.profile();
    if (chosen.url.adjusted(QUrl::StripTrailingSlash)
            != connection->endpoint().baseUrl.adjusted(QUrl::StripTrailingSlash)
        || chosen.caFile != connection->endpoint().caFile
        || chosen.pollSeconds * 1000 != connection->endpoint().changePollIntervalMs) {
        // Each of these belongs to the connection's endpoint, which a store shares with
        // its workers: a new one is made rather than changed under them.
        connectTo(chosen, dialog.ownerKey());
        return;
    }
    connection->setOwnerKey(dialog.ownerKey());
    emit statusMessage(tr("The new owner key is used from now on."));
    emit keyChanged();
}
