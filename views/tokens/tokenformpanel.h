#pragma once

#include "dispatch/tokens/capabilitytoken.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

// The "New token" form of the Capability tokens dialog. It only gathers what the owner
// typed; the engine (CapabilityToken::validate, pinToRow) judges it and names what is wrong.
class TokenFormPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TokenFormPanel)

public:
    explicit TokenFormPanel(QWidget *parent = nullptr);

    // Empties every field and offers `keys` for pinning.
    void reset(const QStringList &keys);
    // The token as typed, without a pin.
    CapabilityToken spec() const;
    // The key whose contract to pin; empty for none.
    QString pinKey() const;

    QLineEdit *labelEdit() const { return m_label; }
    QLineEdit *audienceEdit() const { return m_audience; }
    QLineEdit *keysEdit() const { return m_keys; }
    QLineEdit *categoriesEdit() const { return m_categories; }
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
    QLineEdit *m_label;
    QLineEdit *m_audience;
    QLineEdit *m_keys;
    QLineEdit *m_categories;
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
