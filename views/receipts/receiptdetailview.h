#pragma once

#include "models/receiptinspection.h"

#include <QHash>
#include <QWidget>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

// Every field of one receipt, the three fingerprints in full, whether its signature
// verifies against the directory's keys and whether the row's contract has moved on
// since (or the row is gone). It shows; the viewer acts on its requests.
class ReceiptDetailView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReceiptDetailView)

public:
    explicit ReceiptDetailView(QWidget *parent = nullptr);

    void showInspection(const ReceiptInspection &inspection);
    // No receipt: nothing selected, or it could not be read.
    void showMessage(const QString &message);
    // What the pane says while no receipt has been chosen, `listEmpty` when the list has
    // none to choose. A receipt or another message showing stays.
    void prompt(bool listEmpty);

    QString invocationId() const { return m_invocationId; }
    // The text shown for a SPEC §6 field, by its JSON name ("duration_ms",
    // "fingerprints.contract"), or for "current_contract", the row's fingerprint now.
    QString fieldText(const QString &name) const;
    // "valid", "invalid" or "no key"; empty without a receipt.
    QString signatureText() const { return m_signatureText; }
    // Empty while the row's contract is the receipt's.
    QString driftText() const;
    QString messageText() const;

    QPushButton *jumpButton() const { return m_jump; }
    QPushButton *copyButton() const { return m_copy; }
    QPushButton *exportButton() const { return m_export; }

signals:
    void rowRequested(const QString &key);
    void invocationRequested(const QString &invocationId);
    void copyRequested();
    void exportRequested();

private:
    QLabel *addField(QFormLayout *form, const QString &name, const QString &label, bool monospace = false);
    void addHexField(QFormLayout *form, const QString &name, const QString &label);
    void setField(const QString &name, const QString &text);
    static void styleBadge(QLabel *badge, const char *background);

    QLabel *m_message;
    bool m_prompting = true;
    QWidget *m_content;
    QLabel *m_title;
    QLabel *m_signature;
    QLabel *m_drift;
    QPushButton *m_jump;
    QPushButton *m_copy;
    QPushButton *m_export;
    QHash<QString, QLabel *> m_fields;
    QHash<QString, QLineEdit *> m_hexFields;
    QString m_invocationId;
    QString m_key;
    QString m_signatureText;
};
