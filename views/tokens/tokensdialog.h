#pragma once

#include <QDialog>

#include <memory>

class CapabilityTokenModel;
class CapabilityTokenStore;
class DirectoryStore;
class Prompter;
class QPushButton;
class QTableView;
class TokenFormPanel;
class TokenValuePanel;

// Tools → Capability tokens… (SPEC §7): the directory's tokens and what each allows; a
// form that mints a new one, whose value is shown once and then forgotten; revocation.
// Tokens live in the directory file, so they take effect without saving.
class TokensDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TokensDialog)

public:
    // `rows` offers its keys for pinning, its keys and categories for completion, and checks
    // a pinned key exists.
    TokensDialog(std::shared_ptr<CapabilityTokenStore> tokens, std::shared_ptr<const DirectoryStore> rows,
                 Prompter &prompter, QWidget *parent = nullptr);

    CapabilityTokenModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    TokenFormPanel *form() const { return m_form; }
    TokenValuePanel *valuePanel() const { return m_valuePanel; }

    void refresh();
    void selectToken(const QString &id);
    // Opens the form with the directory's keys offered for pinning.
    void beginNewToken();
    // Creates the token the form describes, or names what is wrong and writes nothing.
    void createToken();
    // Revokes the selected token, after asking.
    void revokeSelected();

protected:
    void hideEvent(QHideEvent *event) override;

private:
    QString selectedId() const;
    void updateActions();

    std::shared_ptr<CapabilityTokenStore> m_tokens;
    std::shared_ptr<const DirectoryStore> m_rows;
    Prompter &m_prompter;
    CapabilityTokenModel *m_model;
    QTableView *m_table;
    TokenFormPanel *m_form;
    TokenValuePanel *m_valuePanel;
    QPushButton *m_newButton;
    QPushButton *m_revokeButton;
};
