#pragma once

#include "models/serverprofilestore.h"
#include "remote/connectioncheck.h"

#include <QDialog>
#include <QFutureWatcher>

#include <memory>

class QLabel;
class QLayout;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class ServerConnection;

// File → Connect to Server…: the saved profiles on the left; on the right name, URL, owner
// key, for https an optional CA file, and how often to check for changes made elsewhere;
// Test Connection (reachability, a refused certificate, key accepted, row count, latency,
// in plain words, checked off the GUI thread); Delete (the profile and its keychain entry); and Connect,
// which saves the profile (the key into the keychain only) and accepts. A saved profile's key is read from
// the keychain asynchronously; until it is there, Test and Connect wait (unless a key is
// typed) and the form says it is being read.
class ConnectDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectDialog)

public:
    explicit ConnectDialog(QWidget *parent = nullptr);
    ~ConnectDialog() override;

    // Shows the saved profile `name` in the form (a new one when there is none).
    void selectProfile(const QString &name);
    // Puts the cursor in the key field: where "Change Key…" sends the user.
    void focusKey();

    // The server as the form names it.
    ServerProfile profile() const;
    // The key typed, else the one in the keychain, else CAPDESK_TERMINAL_KEY.
    QString ownerKey() const;
    // Set after Connect when the key could not go into the keychain (it is used anyway).
    QString keyWarning() const { return m_keyWarning; }

    void testConnection();
    bool isTesting() const { return m_test.isRunning(); }
    // Deletes the profile in the form at once, and its keychain entry asynchronously.
    void deleteProfile();

    QListWidget *profileList() const { return m_profiles; }
    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *urlEdit() const { return m_url; }
    QLineEdit *keyEdit() const { return m_key; }
    QLineEdit *caFileEdit() const { return m_caFile; }
    QSpinBox *pollSecondsEdit() const { return m_pollSeconds; }
    QLabel *resultLabel() const { return m_result; }
    QPushButton *testButton() const { return m_testButton; }
    QPushButton *connectButton() const { return m_connectButton; }
    QPushButton *deleteButton() const { return m_deleteButton; }

    // Saves the profile, the typed key into the keychain first (asynchronously), then accepts.
    void accept() override;

signals:
    void testFinished(const ConnectionCheck &check);

private:
    QWidget *buildForm();
    QLayout *buildCaFileRow();
    void setUpPollInterval();
    void chooseCaFile();
    void readStoredKey(const QString &name);
    void showStoredKey(const KeychainStore::Read &key);
    // Whether ownerKey() can answer: a key is typed, or the stored one is not being read.
    bool keyKnown() const;
    void reloadProfiles(const QString &select);
    void showResult(const QString &text, bool ok);
    void updateButtons();

    QListWidget *m_profiles;
    QLineEdit *m_name;
    QLineEdit *m_url;
    QLineEdit *m_key;
    QLineEdit *m_caFile;
    QSpinBox *m_pollSeconds;
    QLabel *m_keyState;
    QLabel *m_result;
    QPushButton *m_testButton;
    QPushButton *m_connectButton;
    QPushButton *m_deleteButton;
    QString m_keyWarning;
    QString m_storedKey;
    bool m_readingKey = false;
    // Connect was pressed and the typed key is on its way into the keychain.
    bool m_storingKey = false;
    // Which read a keychain answer is for: one for an earlier profile is dropped.
    int m_keyReads = 0;
    // The connection a running test uses; it outlives the test on the GUI thread.
    std::shared_ptr<ServerConnection> m_tested;
    QFutureWatcher<ConnectionCheck> m_test;
};
