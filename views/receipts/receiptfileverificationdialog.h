#pragma once

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptfilecheck.h"

#include <QDialog>

#include <optional>

class DirectoryLedger;
class Prompter;
class QLabel;
class QPushButton;
class QRadioButton;
class QTableWidget;

// "Verify a receipt file…": checks an exported receipt offline, as anyone holding the
// public key could, with this directory's keys or a public key file, and lists its
// fields, marking those that differ from this directory's copy of the same invocation.
class ReceiptFileVerificationDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReceiptFileVerificationDialog)

public:
    ReceiptFileVerificationDialog(const DirectoryLedger &ledger, Prompter &prompter,
                                  QWidget *parent = nullptr);

    // Asks for the receipt file and checks it; false when the choice was cancelled.
    bool chooseReceiptFile();
    // Asks for a public key file and checks with it alone.
    void chooseKeyFile();
    void useDirectoryKeys();

    // "valid", "invalid", "no key", or "" before a file was read or when it is unreadable.
    QString verdict() const;
    const ReceiptFileCheck::Outcome &outcome() const { return m_outcome; }
    QString summaryText() const;
    QTableWidget *fieldTable() const { return m_fields; }

private:
    void check();
    void showOutcome();

    const DirectoryLedger &m_ledger;
    Prompter &m_prompter;
    QString m_receiptPath;
    QByteArray m_receiptBytes;
    QString m_keyPath;
    std::optional<PublicKey> m_keyFromFile; // unset: this directory's keys
    std::optional<QJsonObject> m_stored; // this directory's receipt of the same invocation
    ReceiptFileCheck::Outcome m_outcome;
    bool m_checked = false;

    QLabel *m_receiptLabel;
    QRadioButton *m_directoryKeys;
    QRadioButton *m_fileKey;
    QLabel *m_keyLabel;
    QLabel *m_verdict;
    QLabel *m_summary;
    QTableWidget *m_fields;
};
