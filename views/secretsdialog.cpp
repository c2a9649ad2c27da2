#include "secretsdialog.h"

#include "directorystore.h"
#include "keychainstore.h"
#include "prompter.h"
#include "rowstext.h"
#include "secretlistmodel.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

SecretsDialog::SecretsDialog(const DirectoryStore &store, KeychainStore &keychain, Prompter &prompter,
                             QWidget *parent)
    : QDialog(parent), m_store(store), m_keychain(keychain), m_prompter(prompter), m_model(new SecretListModel(this)),
      m_banner(new QLabel), m_malformed(new QLabel), m_table(new QTableView), m_entry(new QWidget),
      m_entryLabel(new QLabel), m_value(new QLineEdit), m_storeButton(new QPushButton(tr("Store"))),
      m_setButton(new QPushButton(tr("Set Value…"))), m_removeButton(new QPushButton(tr("Delete")))
{
    setObjectName(QStringLiteral("secretsDialog"));
    setWindowTitle(tr("Secrets"));
    resize(760, 460);

    m_banner->setObjectName(QStringLiteral("keychainBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::PlainText);
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: #fff4ce; color: #4a3b00; border: 1px solid #e0c25c;"
                                           " border-radius: 4px; padding: 8px; }"));
    m_banner->hide();

    auto *hint = new QLabel(tr("Rows name a secret in their auth field. A call takes its value from the environment "
                               "variable of that name first, then from the keychain (service \u201ccapdesk\u201d). "
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
                       int(SecretListModel::EnvironmentColumn), int(SecretListModel::KeychainColumn)})
        m_table->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
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
    layout->addWidget(m_entry);
    layout->addWidget(buttons);

    refresh();
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SecretsDialog::updateActions);
    if (m_model->rowCount() > 0)
        m_table->selectRow(0);
    updateActions();
}

SecretsDialog::~SecretsDialog()
{
    cancelEntry();
}

void SecretsDialog::refresh()
{
    const QString selected = selectedName();
    QString why;
    m_keychainAvailable = m_keychain.available(&why);
    m_banner->setText(tr("The keychain is unavailable: %1.\nSecrets from the environment still work; values "
                         "cannot be set or deleted here until a Secret Service is running.")
                          .arg(why));
    m_banner->setVisible(!m_keychainAvailable);

    const StoreResult<QList<AuthUsage>> usage = m_store.authUsage();
    if (!usage.ok())
        m_prompter.showError(tr("Secrets"), usage.error().message);
    SecretInventory inventory = SecretInventory::fromUsage(usage.ok() ? usage.value() : QList<AuthUsage>());
    inventory.checkOrigins(m_keychainAvailable ? &m_keychain : nullptr);
    const int malformed = inventory.malformedRows();
    m_model->setInventory(std::move(inventory));
    // The malformed texts themselves stay unshown: one may be a pasted credential.
    m_malformed->setText(tr("%1 with an auth that names no secret (not bearer:NAME, basic:NAME, query:NAME or "
                            "query:PARAM=NAME) are not listed; the row editor shows them.")
                             .arg(RowsText::rows(malformed)));
    m_malformed->setVisible(malformed > 0);
    m_table->setToolTip(m_model->rowCount() == 0 ? tr("No saved row names a secret in its auth field.") : QString());
    selectName(selected);
    updateActions();
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
    const QModelIndexList rows = m_table->selectionModel() ? m_table->selectionModel()->selectedRows()
                                                           : QModelIndexList();
    const SecretInventory::Secret *secret = rows.isEmpty() ? nullptr : m_model->secretAt(rows.first().row());
    return secret ? secret->name : QString();
}

void SecretsDialog::updateActions()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    const SecretInventory::Secret *secret = rows.isEmpty() ? nullptr : m_model->secretAt(rows.first().row());
    const bool entering = m_entry->isVisibleTo(this);
    const bool inKeychain = secret && secret->keychain == SecretInventory::KeychainState::Present;
    m_setButton->setText(inKeychain ? tr("Replace Value…") : tr("Set Value…"));
    m_setButton->setEnabled(m_keychainAvailable && secret && !entering);
    m_removeButton->setEnabled(m_keychainAvailable && inKeychain && !entering);
    m_table->setEnabled(!entering);
}

void SecretsDialog::beginEntry()
{
    m_entryName = selectedName();
    if (!m_keychainAvailable || m_entryName.isEmpty())
        return;
    m_entryLabel->setText(tr("New value for %1:").arg(m_entryName));
    m_value->setText(QString());
    m_entry->show();
    m_value->setFocus();
    updateActions();
}

void SecretsDialog::storeEntry()
{
    if (m_entryName.isEmpty() || m_value->text().isEmpty())
        return;
    QString value = m_value->text();
    // setText() (not clear()) drops the field's copy and its undo history, so `value` is
    // left as the only copy and fill() overwrites the typed text in place.
    m_value->setText(QString());
    QString why;
    const bool stored = m_keychain.set(m_entryName, value, &why);
    value.fill(u'\0');
    const QString name = m_entryName;
    cancelEntry();
    if (!stored)
        m_prompter.showError(tr("Secrets"), tr("Cannot store %1 in the keychain: %2").arg(name, why));
    refresh();
    selectName(name);
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
    if (name.isEmpty() || !m_keychainAvailable || !m_prompter.confirmRemoveSecret(name))
        return;
    QString why;
    if (!m_keychain.remove(name, &why))
        m_prompter.showError(tr("Secrets"), tr("Cannot delete %1 from the keychain: %2").arg(name, why));
    refresh();
}
