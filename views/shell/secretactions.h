#pragma once

#include "dispatch/secrets/keychainstore.h"

#include <QObject>

class DirectorySession;
class Prompter;
class QAction;
class QWidget;

// Tools → Secrets…: opens the SecretsDialog on the open directory, and tells the window
// whether the keychain answers, so a missing Secret Service is visible without opening
// anything (environment secrets keep working either way, and values set in the dialog are
// then kept in the session's memory until Capdesk closes).
class SecretActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretActions)

public:
    SecretActions(DirectorySession &session, Prompter &prompter, QWidget *dialogParent,
                  QObject *parent = nullptr);
    ~SecretActions() override;

    QAction *secretsAction() const { return m_secrets; }

    void openSecrets();
    // Asks the keychain once, without waiting for it; keychainStatusChanged() follows.
    void checkKeychain();

signals:
    // "Keychain: available" or "Keychain: unavailable — secrets kept in memory until Capdesk
    // closes", with a plain explanation and the Secret Service's own error as `why`.
    void keychainStatusChanged(const QString &text, const QString &why);

private:
    DirectorySession &m_session;
    Prompter &m_prompter;
    QWidget *m_dialogParent;
    KeychainStore m_keychain;
    QAction *m_secrets;
};
