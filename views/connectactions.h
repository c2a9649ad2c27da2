#pragma once

#include "serverprofilestore.h"
#include "unsavedchangesguard.h"

#include <QObject>

class DirectorySession;
class FileActions;
class Prompter;
class QAction;
class QWidget;

// File → Connect to Server… and Disconnect, `capdesk --server PROFILE|URL`, and the
// banner's Change Key…. Connecting tests the server and the key first, so a wrong
// address or key leaves the open directory (and its unsaved edits) as it was; only then
// does the UnsavedChangesGuard ask about dropping it. Disconnect goes back to the last
// local file (File → Open works as always).
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
    bool connectTo(const ServerProfile &profile, const QString &ownerKey);
    // A profile name, or a URL (a profile's, or any server's with CAPDESK_TERMINAL_KEY). A
    // profile's key is read from the keychain first, without waiting for it here.
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

private:
    void updateActions();

    DirectorySession &m_session;
    Prompter &m_prompter;
    FileActions &m_files;
    QWidget *m_dialogParent;
    UnsavedChangesGuard m_guard;
    QAction *m_connect;
    QAction *m_disconnect;
};
