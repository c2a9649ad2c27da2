#include "views/shell/secretactions.h"

#include "models/directorydocument.h"
#include "views/common/directorysession.h"
#include "views/secrets/secretsdialog.h"

#include <QAction>
#include <QIcon>

SecretActions::SecretActions(DirectorySession &session, Prompter &prompter, QWidget *dialogParent,
                             QObject *parent)
    : QObject(parent), m_session(session), m_prompter(prompter), m_dialogParent(dialogParent),
      m_secrets(new QAction(QIcon::fromTheme(QStringLiteral("dialog-password")), tr("&Secrets…"), this))
{
    m_secrets->setObjectName(QStringLiteral("secretsAction"));
    m_secrets->setStatusTip(tr("Which secrets the rows name and where their values come from"));
    connect(m_secrets, &QAction::triggered, this, &SecretActions::openSecrets);
    connect(&m_session, &DirectorySession::documentChanged, this,
            [this](DirectoryDocument *document) { m_secrets->setEnabled(document != nullptr); });
    m_secrets->setEnabled(m_session.document() != nullptr);
}

SecretActions::~SecretActions() = default;

void SecretActions::openSecrets()
{
    DirectoryDocument *document = m_session.document();
    if (!document)
        return;
    SecretsDialog dialog(document->sharedStore(), m_keychain, *m_session.memorySecrets(), m_prompter,
                         m_dialogParent);
    dialog.exec();
    // The user may have started or stopped a Secret Service while the dialog was open.
    checkKeychain();
}

void SecretActions::checkKeychain()
{
    m_keychain.availableAsync(this, [this](const KeychainStore::Outcome &availability) {
        if (availability.ok)
            emit keychainStatusChanged(tr("Keychain: available"), QString());
        else
            emit keychainStatusChanged(
                tr("Keychain: unavailable \u2014 secrets kept in memory until Capdesk closes"),
                tr("No Secret Service (such as GNOME Keyring or KWallet) answers in this session, so secret "
                   "values set in Tools \u2192 Secrets\u2026 are kept only in memory until Capdesk closes. "
                   "Environment variables still work.\n\nDetails: %1")
                    .arg(availability.detail.isEmpty() ? availability.error : availability.detail));
    });
}
