#pragma once

#include "dispatch/receipts/signingkeyvault.h"

#include <QObject>
#include <QStringList>

#include <memory>

class DirectoryLedger;
class DirectorySession;
class Prompter;
class QAction;
class QWidget;

// Tools → Capability tokens…, File → Export Receipt Public Key… and File → Start a New
// Receipt Key…, and the status bar's
// word on where the open directory's receipt-signing key lives (keychain or file).
class LedgerActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LedgerActions)

public:
    LedgerActions(DirectorySession &session, Prompter &prompter, QWidget *dialogParent,
                  QObject *parent = nullptr);

    QAction *tokensAction() const { return m_tokens; }
    QAction *exportPublicKeyAction() const { return m_exportKey; }
    QAction *newSigningKeyAction() const { return m_newKey; }

    void openTokens();
    // Unlocks the signing key without waiting for the keychain, then asks where to save.
    void exportPublicKey();
    // Asks, then signs receipts with a new key from now on (DirectoryLedger::startNewSigningKey)
    // without waiting for the keychain, and says which key it is.
    void startNewSigningKey();
    // Emits signingKeyStatusChanged() for the open directory: at once while the key is
    // looked for, again once the keychain has answered.
    void checkSigningKey();

signals:
    void signingKeyStatusChanged(const QString &text, const QString &detail);

private:
    void savePublicKey(const DirectoryLedger &ledger, const QByteArray &pem);
    void signWithNewKey(const std::shared_ptr<DirectoryLedger> &ledger, const QStringList &follow);
    static QString newKeyReport(const SigningKeyVault::NewKey &made);

    DirectorySession &m_session;
    Prompter &m_prompter;
    QWidget *m_dialogParent;
    QAction *m_tokens;
    QAction *m_exportKey;
    QAction *m_newKey;
    bool m_keyPending = false; // the open directory has no signing key until its first call
    // The ledger a new key is being made for, one at a time; expired when none is.
    std::weak_ptr<DirectoryLedger> m_newKeyFor;
};
