#pragma once

#include "dispatch/tokens/capabilitytoken.h"
#include "dispatch/tokens/tokenscopecheck.h"

#include <QWidget>

class NameListCompleter;
class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

// The "New token" form of the Capability tokens dialog. It only gathers what the owner
// typed; the engine (CapabilityToken::validate, pinToRow) judges it and names what is wrong.
// The keys and categories fields complete from the directory's names, and a name no row
// has is warned about as it is typed (TokenScopeCheck) without blocking: a token may name a
// row to be made later.
class TokenFormPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TokenFormPanel)

public:
    explicit TokenFormPanel(QWidget *parent = nullptr);

    // Empties every field and offers the `known` keys for pinning and completion, and the
    // known categories for completion.
    void reset(const TokenScopeCheck::Names &known);
    // The token as typed, without a pin.
    CapabilityToken spec() const;
    // The key whose contract to pin; empty for none.
    QString pinKey() const;

    QLineEdit *labelEdit() const { return m_label; }
    QLineEdit *audienceEdit() const { return m_audience; }
    QLineEdit *keysEdit() const { return m_keys; }
    QLineEdit *categoriesEdit() const { return m_categories; }
    NameListCompleter *keysCompleter() const { return m_keysCompleter; }
    NameListCompleter *categoriesCompleter() const { return m_categoriesCompleter; }
    // Says which typed keys and categories no row has; hidden while there are none.
    QLabel *unknownNamesWarning() const { return m_unknownNames; }
    QComboBox *riskCombo() const { return m_risk; }
    QComboBox *pinCombo() const { return m_pin; }
    QCheckBox *ownerGateCheck() const { return m_ownerGate; }
    QCheckBox *fixedBodyCheck() const { return m_fixedBodyOn; }
    QPlainTextEdit *fixedBodyEdit() const { return m_fixedBody; }
    QCheckBox *ceilingCheck() const { return m_ceilingOn; }
    QSpinBox *ceilingSpin() const { return m_ceiling; }
    QCheckBox *expiryCheck() const { return m_expiryOn; }
    QDateTimeEdit *expiryEdit() const { return m_expiry; }

signals:
    void createRequested();
    void cancelled();

private:
    void warnAboutUnknownNames();

    TokenScopeCheck::Names m_known;
    QLineEdit *m_label;
    QLineEdit *m_audience;
    QLineEdit *m_keys;
    QLineEdit *m_categories;
    NameListCompleter *m_keysCompleter;
    NameListCompleter *m_categoriesCompleter;
    QLabel *m_unknownNames;
    QComboBox *m_risk;
    QComboBox *m_pin;
    QCheckBox *m_ownerGate;
    QCheckBox *m_fixedBodyOn;
    QPlainTextEdit *m_fixedBody;
    QCheckBox *m_ceilingOn;
    QSpinBox *m_ceiling;
    QCheckBox *m_expiryOn;
    QDateTimeEdit *m_expiry;
};
