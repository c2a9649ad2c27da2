#include "views/shell/ledgeractions.h"

#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/directorystore.h"
#include "models/directorydocument.h"
#include "views/common/directorysession.h"
#include "views/common/prompter.h"
#include "views/tokens/tokensdialog.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QSaveFile>

using namespace Qt::StringLiterals;

LedgerActions::LedgerActions(DirectorySession &session, Prompter &prompter, QWidget *dialogParent,
                             QObject *parent)
    : QObject(parent), m_session(session), m_prompter(prompter), m_dialogParent(dialogParent),
      m_tokens(
          new QAction(QIcon::fromTheme(QStringLiteral("security-high")), tr("Capability &Tokens…"), this)),
      m_exportKey(new QAction(tr("Export Receipt &Public Key…"), this)),
      m_newKey(new QAction(tr("Start a New Receipt &Key…"), this))
{
    m_tokens->setObjectName(QStringLiteral("tokensAction"));
    m_tokens->setStatusTip(tr("Scoped tokens that let others call chosen rows, and their revocation"));
    m_exportKey->setObjectName(QStringLiteral("exportPublicKeyAction"));
    m_exportKey->setStatusTip(tr("Save the key anyone can check this directory's receipts with"));
    connect(m_tokens, &QAction::triggered, this, &LedgerActions::openTokens);
    m_newKey->setObjectName(QStringLiteral("newSigningKeyAction"));
    m_newKey->setStatusTip(tr("Sign receipts with a new key from now on: for a directory whose key is lost "
                              "or should sign no more"));
    connect(m_exportKey, &QAction::triggered, this, &LedgerActions::exportPublicKey);
    connect(m_newKey, &QAction::triggered, this, &LedgerActions::startNewSigningKey);
    auto follow = [this] {
        m_tokens->setEnabled(m_session.tokens() != nullptr);
        m_exportKey->setEnabled(m_session.ledger() != nullptr);
        // A ledger closed meanwhile never answers: its request went with it.
        if (m_newKeyFor.lock() != m_session.ledger())
            m_newKeyFor.reset();
        m_newKey->setEnabled(m_session.ledger() != nullptr && m_newKeyFor.expired());
    };
    connect(&m_session, &DirectorySession::documentChanged, this, follow);
    connect(&m_session, &DirectorySession::documentChanged, this, &LedgerActions::checkSigningKey);
    // The first real call makes the key: the status then says where it went.
    connect(&m_session, &DirectorySession::invocationFinished, this,
            [this](const InvocationRequest &request) {
                if (m_keyPending && !request.shape)
                    checkSigningKey();
            });
    follow();
}

void LedgerActions::openTokens()
{
    if (!m_session.tokens())
        return;
    TokensDialog dialog(m_session.tokens(), m_session.document()->sharedStore(), m_prompter, m_dialogParent);
    dialog.exec();
}

void LedgerActions::exportPublicKey()
{
    const std::shared_ptr<DirectoryLedger> &ledger = m_session.ledger();
    if (!ledger)
        return;
    ledger->publicKeyAsync(
        this, [this, opened = std::weak_ptr<DirectoryLedger>(ledger)](const StoreResult<PublicKey> &key) {
            const std::shared_ptr<DirectoryLedger> ledger = opened.lock();
            if (!ledger || ledger != m_session.ledger())
                return;
            if (!key.ok())
                m_prompter.showError(tr("Export Public Key"), key.error().message);
            else
                savePublicKey(*ledger, key.value().pem());
        });
}

void LedgerActions::savePublicKey(const DirectoryLedger &ledger, const QByteArray &pem)
{
    const QFileInfo directory(ledger.store()->location());
    const QString path = m_prompter.choosePublicKeyExportPath(
        directory.absoluteDir().filePath(directory.completeBaseName() + QStringLiteral("-receipts.pub.pem")));
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(pem) != pem.size() || !file.commit()) {
        m_prompter.showError(tr("Export Public Key"),
                             tr("Cannot write %1: %2").arg(path, file.errorString()));
        return;
    }
    m_prompter.showInfo(
        tr("Export Public Key"),
        tr("Saved to %1. Anyone can check a receipt with it:\ncapdeskctl verify-receipt RECEIPT.json "
           "--public-key %2")
            .arg(path, QFileInfo(path).fileName()));
}

void LedgerActions::startNewSigningKey()
{
    const std::shared_ptr<DirectoryLedger> &ledger = m_session.ledger();
    if (!ledger || !m_newKeyFor.expired())
        return;
    // The key checkSigningKey() unlocked when the directory opened, if any: it signs for the
    // new one. Not looked for again here, which would wait on the keychain.
    QString heldId;
    if (ledger->holdsSigningKey()) {
        if (const StoreResult<std::optional<SigningKey>> held = ledger->heldSigningKey();
            held.ok() && held.value())
            heldId = held.value()->publicKey().keyId();
    }
    QStringList listedIds;
    for (const PublicKey &key : ledger->publicKeys())
        listedIds.append(key.keyId());
    if (!m_prompter.confirmNewSigningKey(heldId, listedIds))
        return;
    // Read only if no key is found here after all: then the owner has named these.
    signWithNewKey(ledger, heldId.isEmpty() ? listedIds : QStringList());
}

void LedgerActions::signWithNewKey(const std::shared_ptr<DirectoryLedger> &ledger, const QStringList &follow)
{
    m_newKeyFor = ledger;
    m_newKey->setEnabled(false);
    ledger->startNewSigningKeyAsync(
        this, follow,
        [this,
         opened = std::weak_ptr<DirectoryLedger>(ledger)](const StoreResult<SigningKeyVault::NewKey> &made) {
            m_newKeyFor.reset();
            const std::shared_ptr<DirectoryLedger> ledger = opened.lock();
            m_newKey->setEnabled(m_session.ledger() != nullptr);
            if (!ledger || ledger != m_session.ledger())
                return;
            if (!made.ok()) {
                m_prompter.showError(tr("Start a New Receipt Key"), made.error().message);
                return;
            }
            m_prompter.showInfo(tr("Start a New Receipt Key"), newKeyReport(made.value()));
            checkSigningKey();
        });
}

QString LedgerActions::newKeyReport(const SigningKeyVault::NewKey &made)
{
    const auto ids = [](const QList<PublicKey> &keys) {
        QStringList list;
        for (const PublicKey &key : keys)
            list.append(key.keyId());
        return list.join(u", "_s);
    };
    QString text = tr("New receipt key %1: it signs every receipt from now on.")
                       .arg(made.unlocked.key.publicKey().keyId());
    if (!made.follows.isEmpty())
        text += u"\n\n"_s
                + (made.vouchedBy.isEmpty()
                       ? tr("It vouches for %1. No key held here signed for it.").arg(ids(made.follows))
                       : tr("It vouches for %1, and %2, held here, signed for it.")
                             .arg(ids(made.follows), made.vouchedBy));
    if (!made.leftOut.isEmpty())
        text += u"\n\n"_s
                + tr("Left out: %1. The directory lists them, but no key held here trusted them, so their "
                     "receipts check as another key's.")
                      .arg(ids(made.leftOut));
    return text + u"\n\n"_s + SigningKeyVault::storageDescription(made.unlocked);
}

void LedgerActions::checkSigningKey()
{
    const std::shared_ptr<DirectoryLedger> &ledger = m_session.ledger();
    m_keyPending = ledger && ledger->publicKeys().isEmpty();
    if (!ledger) {
        emit signingKeyStatusChanged(QString(), QString());
        return;
    }
    // The pair is made on the first real call; until then there is nothing to unlock.
    if (m_keyPending) {
        emit signingKeyStatusChanged(tr("Receipt key: made on the first call"), QString());
        return;
    }
    emit signingKeyStatusChanged(
        tr("Receipt key: looking\u2026"),
        tr("Looking for the receipt-signing key in the keychain and beside the file"));
    ledger->unlockAsync(
        this, [this, opened = std::weak_ptr<DirectoryLedger>(ledger)](const StoreError &error) {
            const std::shared_ptr<DirectoryLedger> ledger = opened.lock();
            if (!ledger || ledger != m_session.ledger())
                return;
            if (error.isError()) {
                emit signingKeyStatusChanged(tr("Receipt key: unavailable"), error.message);
                return;
            }
            const bool inKeychain = ledger->keyIsInKeychain().value();
            emit signingKeyStatusChanged(inKeychain ? tr("Receipt key: keychain") : tr("Receipt key: file"),
                                         ledger->keyStorage().value());
        });
}
