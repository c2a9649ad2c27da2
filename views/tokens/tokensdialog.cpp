#include "views/tokens/tokensdialog.h"

#include "dispatch/store/directorystore.h"
#include "dispatch/tokens/capabilitytokenstore.h"
#include "dispatch/tokens/tokenscopecheck.h"
#include "models/capabilitytokenmodel.h"
#include "views/common/prompter.h"
#include "views/tokens/tokenformpanel.h"
#include "views/tokens/tokenvaluepanel.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace {

// The GUI runs on the owner's own machine, with the owner at the keyboard.
const QString kActor = QStringLiteral("owner:local");

} // namespace

TokensDialog::TokensDialog(std::shared_ptr<CapabilityTokenStore> tokens,
                           std::shared_ptr<const DirectoryStore> rows, Prompter &prompter, QWidget *parent)
    : QDialog(parent), m_tokens(std::move(tokens)), m_rows(std::move(rows)), m_prompter(prompter),
      m_model(new CapabilityTokenModel(this)), m_table(new QTableView), m_form(new TokenFormPanel),
      m_valuePanel(new TokenValuePanel), m_newButton(new QPushButton(tr("New Token…"))),
      m_revokeButton(new QPushButton(tr("Revoke…")))
{
    setObjectName(QStringLiteral("tokensDialog"));
    setWindowTitle(tr("Capability tokens"));
    resize(900, 520);

    auto *hint =
        new QLabel(tr("A capability token lets an agent or a script call some rows of this directory, and "
                      "nothing else. Only a hash of each token is kept in the file."));
    hint->setWordWrap(true);

    m_table->setObjectName(QStringLiteral("tokenTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(CapabilityTokenModel::ScopeColumn,
                                                      QHeaderView::Stretch);

    m_form->hide();
    connect(m_form, &TokenFormPanel::createRequested, this, &TokensDialog::createToken);
    connect(m_form, &TokenFormPanel::cancelled, m_form, &QWidget::hide);

    m_newButton->setObjectName(QStringLiteral("newTokenButton"));
    m_revokeButton->setObjectName(QStringLiteral("revokeTokenButton"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_newButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_revokeButton, QDialogButtonBox::ActionRole);
    // Enter in a form field must not close the dialog and lose what was typed.
    for (QAbstractButton *button : buttons->buttons())
        if (auto *push = qobject_cast<QPushButton *>(button))
            push->setAutoDefault(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_newButton, &QPushButton::clicked, this, &TokensDialog::beginNewToken);
    connect(m_revokeButton, &QPushButton::clicked, this, &TokensDialog::revokeSelected);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_valuePanel);
    layout->addWidget(m_form);
    layout->addWidget(buttons);

    refresh();
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &TokensDialog::updateActions);
    updateActions();
}

void TokensDialog::refresh()
{
    const QString selected = selectedId();
    const StoreResult<QList<CapabilityToken>> tokens = m_tokens->list();
    if (!tokens.ok())
        m_prompter.showError(windowTitle(), tokens.error().message);
    m_model->setTokens(tokens.ok() ? tokens.value() : QList<CapabilityToken>(),
                       QDateTime::currentDateTimeUtc());
    selectToken(selected);
    updateActions();
}

void TokensDialog::selectToken(const QString &id)
{
    const int row = m_model->rowOf(id);
    if (row >= 0)
        m_table->selectRow(row);
}

QString TokensDialog::selectedId() const
{
    const QModelIndexList rows =
        m_table->selectionModel() ? m_table->selectionModel()->selectedRows() : QModelIndexList();
    const CapabilityToken *token = rows.isEmpty() ? nullptr : m_model->tokenAt(rows.first().row());
    return token ? token->id : QString();
}

void TokensDialog::updateActions()
{
    const CapabilityToken *token = m_model->tokenAt(m_model->rowOf(selectedId()));
    m_revokeButton->setEnabled(token && !token->isRevoked());
}

void TokensDialog::beginNewToken()
{
    m_valuePanel->clear();
    const StoreResult<TokenScopeCheck::Names> known = TokenScopeCheck::known(*m_rows);
    if (!known.ok())
        m_prompter.showError(windowTitle(), known.error().message);
    m_form->reset(known.ok() ? known.value() : TokenScopeCheck::Names());
    m_form->show();
    m_form->audienceEdit()->setFocus();
}

void TokensDialog::createToken()
{
    CapabilityToken spec = m_form->spec();
    if (const QString key = m_form->pinKey(); !key.isEmpty()) {
        // The stored row, not an unsaved edit: the gate compares against what is stored.
        const StoreResult<Row> row = m_rows->row(key);
        const StoreError error = row.ok() ? spec.pinToRow(row.value()) : row.error();
        if (error.isError()) {
            m_prompter.showError(windowTitle(), error.message);
            return;
        }
    }
    const StoreResult<CapabilityTokenStore::Minted> minted = m_tokens->create(spec, kActor);
    if (!minted.ok()) {
        m_prompter.showError(windowTitle(), minted.error().message);
        return;
    }
    m_form->hide();
    refresh();
    selectToken(minted.value().token.id);
    m_valuePanel->showValue(minted.value().token.id, minted.value().value);
}

void TokensDialog::revokeSelected()
{
    const QString id = selectedId();
    if (id.isEmpty())
        return;
    const CapabilityToken *token = m_model->tokenAt(m_table->currentIndex().row());
    if (!m_prompter.confirmRevokeToken(id, token ? token->label : QString()))
        return;
    const StoreError error = m_tokens->revoke(id, kActor);
    if (error.isError())
        m_prompter.showError(windowTitle(), error.message);
    refresh();
}

void TokensDialog::hideEvent(QHideEvent *event)
{
    m_valuePanel->clear();
    QDialog::hideEvent(event);
}
