#pragma once

#include "models/serverprofilestore.h"
#include "views/shell/unsavedchangesguard.h"

#include "remote/connectioncheck.h"

#include <QObject>

#include <memory>

class DirectorySession;
class FileActions;
class Prompter;
class QAction;
class QWidget;
class ServerConnection;

// File → Connect to Server… and Disconnect, `capdesk --server PROFILE|URL`, and the
// banner's Change Key…. Connecting tests the server and the key first, so a wrong
// address or key leaves the open directory (and its unsaved edits) as it was; only then
// does the UnsavedChangesGuard ask about dropping it. The test runs off the GUI thread:
// the window keeps working while a slow server answers, and connectFinished() tells
// how it ended. Disconnect goes back to the last local file (File → Open works as always).
class ConnectActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectActions)

public:
    // How long one request to a server may take.
    static constexpr int requestTimeoutMs = 15000;

    ConnectActions(DirectorySession &session, Prompter &prompter, FileActions &files, QWidget *dialogParent,
                   QObject *parent = nullptr);

    QAction *connectAction() const { return m_connect; }
    QAction *disconnectAction() const { return m_disconnect; }

    void chooseAndConnect();
    // Starts connecting; false when it could not even start. connectFinished() follows.
    bool connectTo(const ServerProfile &profile, const QString &ownerKey, const QString &keyWarning = {});
    bool isConnecting() const { return m_attempt != m_settled; }
    // A profile name, or a URL (a profile's, or any server's with CAPDESK_TERMINAL_KEY and,
    // for https, CAPDESK_CA_FILE). A profile's key is read from the keychain first, without
    // waiting for it here.
    void connectAtStart(const QString &profileOrUrl);
    bool disconnectFromServer();
    // Asks for a new owner key of the open server's profile and uses it from now on,
    // keeping the open directory and its unsaved edits.
    void changeKey();

signals:
    void statusMessage(const QString &message);
    // The open connection's key was replaced (a pending save can be retried).
    void keyChanged();
    // Connected with a key the server refuses: reads work, writes will not until the key
    // is changed.
    void keyRefused();
    // A connection attempt ended: `connected` is whether the server's directory is open.
    void connectFinished(bool connected);

private:
    void updateActions();
    void finishConnect(const ServerProfile &profile, const std::shared_ptr<ServerConnection> &connection,
                       const ConnectionCheck &check, const QString &keyWarning);

    DirectorySession &m_session;
    Prompter &m_prompter;
    FileActions &m_files;
    QWidget *m_dialogParent;
    UnsavedChangesGuard m_guard;
    QAction *m_connect;
    QAction *m_disconnect;
    // Only the latest attempt opens anything: connecting again supersedes a slow one.
    quint64 m_attempt = 0;
    quint64 m_settled = 0;
};
