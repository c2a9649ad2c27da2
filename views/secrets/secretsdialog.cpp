#include "views/secrets/secretsdialog.h"

#include "dispatch/secrets/keychainstore.h"
#include "dispatch/secrets/memorysecrets.h"
#include "dispatch/store/directorystore.h"
#include "models/guithreadinbox.h"
#include "models/secretlistmodel.h"
#include "views/common/prompter.h"
#include "views/common/rowstext.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

SecretsDialog::SecretsDialog(std::shared_ptr<const DirectoryStore> store, KeychainStore &keychain,
                             MemorySecrets &memory, Prompter &prompter, QWidget *parent)
    : QDialog(parent), m_store(std::move(store)), m_keychain(keychain), m_memory(memory),
      m_prompter(prompter), m_model(new SecretListModel(this)), m_banner(new QLabel), m_activity(new QLabel),
      m_malformed(new QLabel), m_table(new QTableView), m_entry(new QWidget), m_entryLabel(new QLabel),
      m_value(new QLineEdit), m_storeButton(new QPushButton(tr("Store"))),
      m_setButton(new QPushButton(tr("Set Value…"))), m_removeButton(new QPushButton(tr("Delete")))
{
    setObjectName(QStringLiteral("secretsDialog"));
    setWindowTitle(tr("Secrets"));
    resize(760, 460);

    m_banner->setObjectName(QStringLiteral("keychainBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::PlainText);
    m_banner->setStyleSheet(
        QStringLiteral("QLabel { background: #fff4ce; color: #4a3b00; border: 1px solid #e0c25c;"
                       " border-radius: 4px; padding: 8px; }"));
    m_banner->hide();

    m_activity->setObjectName(QStringLiteral("keychainActivity"));
    m_activity->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_activity->hide();

    auto *hint =
        new QLabel(tr("Rows name a secret in their auth field. A call takes its value from the environment "
                      "variable of that name first, then from a value kept in memory for this run (only "
                      "where no keychain answers), then from the keychain (service \u201ccapdesk\u201d). "
                      "Counts are of saved rows. Values are never shown."));
    hint->setWordWrap(true);

    m_malformed->setObjectName(QStringLiteral("malformedNote"));
    m_malformed->setWordWrap(true);

    m_table->setObjectName(QStringLiteral("secretTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(SecretListModel::NameColumn, QHeaderView::Stretch);
    for (int column : {int(SecretListModel::RowsColumn), int(SecretListModel::FormsColumn),
                       int(SecretListModel::EnvironmentColumn), int(SecretListModel::KeychainColumn),
                       int(SecretListModel::MemoryColumn)})
        m_table->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    // Shown once a value is kept in memory or may be: there is no keychain.
    m_table->setColumnHidden(SecretListModel::MemoryColumn, true);
    connect(m_table, &QAbstractItemView::doubleClicked, this, &SecretsDialog::beginEntry);

    // No "show" toggle: what is typed is never displayed, so nothing can be shoulder-read
    // or screenshotted. Password mode also turns off copy, cut, drag and undo.
    m_value->setObjectName(QStringLiteral("secretValue"));
    m_value->setEchoMode(QLineEdit::Password);
    m_storeButton->setObjectName(QStringLiteral("storeValueButton"));
    m_storeButton->setEnabled(false);
    auto *cancel = new QPushButton(tr("Cancel"));
    auto *entryLayout = new QHBoxLayout(m_entry);
    entryLayout->setContentsMargins(0, 0, 0, 0);
    entryLayout->addWidget(m_entryLabel);
    entryLayout->addWidget(m_value, 1);
    entryLayout->addWidget(m_storeButton);
    entryLayout->addWidget(cancel);
    m_entry->hide();
    connect(m_value, &QLineEdit::textChanged, m_storeButton,
            [this](const QString &text) { m_storeButton->setEnabled(!text.isEmpty()); });
    connect(m_value, &QLineEdit::returnPressed, this, &SecretsDialog::storeEntry);
    connect(m_storeButton, &QPushButton::clicked, this, &SecretsDialog::storeEntry);
    connect(cancel, &QPushButton::clicked, this, &SecretsDialog::cancelEntry);

    m_setButton->setObjectName(QStringLiteral("setValueButton"));
    m_removeButton->setObjectName(QStringLiteral("removeValueButton"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_setButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_removeButton, QDialogButtonBox::ActionRole);
    // Enter in the value field stores the value; it must not also close the dialog.
    for (QAbstractButton *button : buttons->buttons())
        if (auto *push = qobject_cast<QPushButton *>(button))
            push->setAutoDefault(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_setButton, &QPushButton::clicked, this, &SecretsDialog::beginEntry);
    connect(m_removeButton, &QPushButton::clicked, this, &SecretsDialog::removeSelected);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addWidget(hint);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_malformed);
    layout->addWidget(m_activity);
    layout->addWidget(m_entry);
    layout->addWidget(buttons);

    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SecretsDialog::updateActions);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &SecretsDialog::updateActions);
    refresh();
}

SecretsDialog::~SecretsDialog()
{
    cancelEntry();
}

void SecretsDialog::refresh()
{
    // Until the keychain answers, the last answer stands (none yet: Set and Delete stay off).
    m_keychain.availableAsync(
        this, [this](const KeychainStore::Outcome &availability) { showAvailability(availability); });
    if (m_store->hasRoundTrips())
        readUsageInBackground();
    else
        showUsage(m_store->authUsage());
}

void SecretsDialog::readUsageInBackground()
{
    m_readingRows = true;
    const quint64 generation = ++m_readGeneration;
    // An overtaken read that has not started is dropped; one on its way is ignored.
    m_reads.cancel(m_pendingRead);
    updateActions();
    QPointer<SecretsDialog> self(this);
    m_pendingRead = m_reads.post([self, generation, store = m_store]() mutable {
        StoreResult<QList<AuthUsage>> usage = store->authUsage();
        // The store goes back with the answer: a server connection is released on the GUI thread.
        GuiThreadInbox::post([self, generation, usage = std::move(usage), store = std::move(store)] {
            if (self && generation == self->m_readGeneration)
                self->showUsage(usage);
        });
    });
}

void SecretsDialog::showUsage(const StoreResult<QList<AuthUsage>> &usage)
{
    // What is selected now, not when the read began: the user may have clicked meanwhile.
    const QString selected = selectedName();
    m_readingRows = false;
    if (!usage.ok())
        m_prompter.showError(tr("Secrets"), usage.error().message);
    SecretInventory inventory = SecretInventory::fromUsage(usage.ok() ? usage.value() : QList<AuthUsage>());
    inventory.checkEnvironment();
    inventory.checkMemory(m_memory);
    const int malformed = inventory.malformedRows();
    m_model->setInventory(std::move(inventory));
    m_model->checkKeychain(m_keychain);
    // The malformed texts themselves stay unshown: one may be a pasted credential.
    m_malformed->setText(
        tr("%1 with an auth that names no secret (not bearer:NAME, basic:NAME, query:NAME or "
           "query:PARAM=NAME) are not listed; the row editor shows them.")
            .arg(RowsText::rows(malformed)));
    m_malformed->setVisible(malformed > 0);
    m_table->setToolTip(m_model->rowCount() == 0 ? tr("No saved row names a secret in its auth field.")
                                                 : QString());
    selectName(selected);
    if (selectedName().isEmpty() && m_model->rowCount() > 0)
        m_table->selectRow(0);
    updateActions();
    emit rowsRead();
}

void SecretsDialog::showAvailability(const KeychainStore::Outcome &availability)
{
    m_availabilityKnown = true;
    m_keychainAvailable = availability.ok;
    // The Secret Service's own words (often D-Bus's, as "Failed to execute child process
    // dbus-launch") tell an administrator what to fix, and nobody else anything.
    m_banner->setText(
        tr("No keychain is available: no Secret Service (such as GNOME Keyring or KWallet) answers in this "
           "session.\nValues you set here are kept only in memory until Capdesk closes: they are never "
           "written to disk, and you set them again after a restart. Environment variables still work."));
    const QString detail = availability.detail.isEmpty() ? availability.error : availability.detail;
    m_banner->setToolTip(detail.isEmpty() ? QString() : tr("Details: %1").arg(detail));
    m_banner->setVisible(!m_keychainAvailable);
    showMemoryColumn();
    updateActions();
}

void SecretsDialog::showMemoryColumn()
{
    m_table->setColumnHidden(SecretListModel::MemoryColumn, !keepsInMemory() && m_memory.isEmpty());
}

void SecretsDialog::selectName(const QString &name)
{
    for (int row = 0; row < m_model->rowCount(); ++row)
        if (m_model->secretAt(row)->name == name) {
            m_table->selectRow(row);
            return;
        }
}

QString SecretsDialog::selectedName() const
{
    const QModelIndexList rows =
        m_table->selectionModel() ? m_table->selectionModel()->selectedRows() : QModelIndexList();
    const SecretInventory::Secret *secret = rows.isEmpty() ? nullptr : m_model->secretAt(rows.first().row());
    return secret ? secret->name : QString();
}

void SecretsDialog::updateActions()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    const SecretInventory::Secret *secret = rows.isEmpty() ? nullptr : m_model->secretAt(rows.first().row());
    const bool entering = m_entry->isVisibleTo(this);
    // Without a keychain there is nothing to wait for: memory answers at once.
    const bool answered =
        secret && (keepsInMemory() || secret->keychain != SecretInventory::KeychainState::Checking);
    const bool hasValue =
        secret && (secret->inMemory || secret->keychain == SecretInventory::KeychainState::Present);
    const bool ready = m_availabilityKnown && answered && !entering && !isWriting();
    m_setButton->setText(hasValue ? tr("Replace Value…") : tr("Set Value…"));
    m_setButton->setEnabled(ready);
    m_removeButton->setEnabled(ready && hasValue);
    m_table->setEnabled(!entering);
    // A keychain write's own text stands while it runs.
    if (!isWriting()) {
        m_activity->setText(m_readingRows                   ? tr("Reading the rows from the server…")
                            : m_model->isCheckingKeychain() ? tr("Asking the keychain…")
                                                            : QString());
    }
    m_activity->setVisible(!m_activity->text().isEmpty());
}

void SecretsDialog::beginEntry()
{
    m_entryName = selectedName();
    if (!m_availabilityKnown || isWriting() || m_entryName.isEmpty())
        return;
    m_entryLabel->setText(keepsInMemory()
                              ? tr("New value for %1 (kept until Capdesk closes):").arg(m_entryName)
                              : tr("New value for %1:").arg(m_entryName));
    m_value->setText(QString());
    m_entry->show();
    m_value->setFocus();
    updateActions();
}

void SecretsDialog::storeEntry()
{
    if (m_entryName.isEmpty() || m_value->text().isEmpty() || isWriting())
        return;
    QString value = m_value->text();
    // setText() (not clear()) drops the field's copy and its undo history, so `value` is
    // left as the only copy and fill() overwrites the typed text in place (the keychain
    // request and the memory each hold a copy of their own).
    m_value->setText(QString());
    const QString name = m_entryName;
    if (keepsInMemory()) {
        m_memory.set(name, value);
        value.fill(u'\0');
        cancelEntry();
        finishWrite(name, QString());
        return;
    }
    m_writing = true;
    m_activity->setText(tr("Storing %1 in the keychain…").arg(name));
    m_keychain.setAsync(name, value, this, [this, name](const KeychainStore::Outcome &stored) {
        // A value kept in memory earlier would shadow the keychain's (memory is looked up first).
        if (stored.ok)
            m_memory.remove(name);
        finishWrite(name, stored.ok ? QString()
                                    : tr("Cannot store %1 in the keychain: %2").arg(name, stored.error));
    });
    value.fill(u'\0');
    cancelEntry();
}

void SecretsDialog::cancelEntry()
{
    m_value->setText(QString());
    m_entryName.clear();
    m_entry->hide();
    updateActions();
}

void SecretsDialog::removeSelected()
{
    const QString name = selectedName();
    if (name.isEmpty() || !m_availabilityKnown || isWriting() || !m_prompter.confirmRemoveSecret(name))
        return;
    m_memory.remove(name);
    if (keepsInMemory()) {
        finishWrite(name, QString());
        return;
    }
    m_writing = true;
    m_activity->setText(tr("Deleting %1 from the keychain…").arg(name));
    updateActions();
    m_keychain.removeAsync(name, this, [this, name](const KeychainStore::Outcome &removed) {
        finishWrite(name, removed.ok ? QString()
                                     : tr("Cannot delete %1 from the keychain: %2").arg(name, removed.error));
    });
}

void SecretsDialog::finishWrite(const QString &name, const QString &failure)
{
    m_writing = false;
    if (!failure.isEmpty())
        m_prompter.showError(tr("Secrets"), failure);
    // A keychain write changes no row: only the keychain and memory columns are asked
    // again, and a server's rows are not fetched for it.
    m_model->checkMemory(m_memory);
    showMemoryColumn();
    m_model->checkKeychain(m_keychain);
    selectName(name);
    updateActions();
    emit writeFinished();
}
