#include "views/receipts/receiptfileverificationdialog.h"

#include "dispatch/invoke/directoryledger.h"
#include "views/common/prompter.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

QString valueText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isNull())
        return u"null"_s;
    if (value.isBool())
        return value.toBool() ? u"true"_s : u"false"_s;
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 17);
    return QString::fromUtf8(QJsonDocument::fromVariant(value.toVariant()).toJson(QJsonDocument::Compact));
}

} // namespace

ReceiptFileVerificationDialog::ReceiptFileVerificationDialog(const DirectoryLedger &ledger,
                                                             Prompter &prompter, QWidget *parent)
    : QDialog(parent), m_ledger(ledger), m_prompter(prompter), m_receiptLabel(new QLabel(this)),
      m_directoryKeys(new QRadioButton(tr("This directory's keys"), this)),
      m_fileKey(new QRadioButton(tr("A public key file"), this)), m_keyLabel(new QLabel(this)),
      m_verdict(new QLabel(this)), m_summary(new QLabel(this)), m_fields(new QTableWidget(0, 3, this))
{
    setWindowTitle(tr("Verify a Receipt File"));
    m_receiptLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_keyLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_directoryKeys->setChecked(true);
    QFont verdictFont = m_verdict->font();
    verdictFont.setBold(true);
    verdictFont.setPointSizeF(verdictFont.pointSizeF() * 1.3);
    m_verdict->setFont(verdictFont);
    m_summary->setWordWrap(true);
    m_fields->setHorizontalHeaderLabels({tr("Field"), tr("Value in the file"), tr("This directory's copy")});
    m_fields->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_fields->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_fields->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_fields->verticalHeader()->hide();
    m_fields->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_fields->setWordWrap(false);
    m_fields->setTextElideMode(Qt::ElideMiddle);
    m_fields->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_fields->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    auto *chooseReceipt = new QPushButton(tr("Choose…"), this);
    auto *chooseKey = new QPushButton(tr("Choose…"), this);
    auto *receiptRow = new QHBoxLayout;
    receiptRow->addWidget(m_receiptLabel, 1);
    receiptRow->addWidget(chooseReceipt);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_directoryKeys);
    keyRow->addWidget(m_fileKey);
    keyRow->addWidget(m_keyLabel, 1);
    keyRow->addWidget(chooseKey);
    auto *form = new QFormLayout;
    form->addRow(tr("Receipt"), receiptRow);
    form->addRow(tr("Check with"), keyRow);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_verdict);
    layout->addWidget(m_summary);
    layout->addWidget(m_fields, 1);
    layout->addWidget(buttons);
    resize(760, 480);

    connect(chooseReceipt, &QPushButton::clicked, this, &ReceiptFileVerificationDialog::chooseReceiptFile);
    connect(chooseKey, &QPushButton::clicked, this, &ReceiptFileVerificationDialog::chooseKeyFile);
    connect(m_directoryKeys, &QRadioButton::clicked, this, &ReceiptFileVerificationDialog::useDirectoryKeys);
    connect(m_fileKey, &QRadioButton::clicked, this, [this] {
        if (m_keyFromFile)
            check();
        else
            chooseKeyFile();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    showOutcome();
}

bool ReceiptFileVerificationDialog::chooseReceiptFile()
{
    const QString path =
        m_prompter.chooseReceiptFile(m_receiptPath.isEmpty() ? QDir::homePath() : m_receiptPath);
    if (path.isEmpty())
        return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_prompter.showError(tr("Verify a Receipt File"),
                             tr("Cannot read %1: %2").arg(path, file.errorString()));
        return false;
    }
    m_receiptPath = path;
    m_receiptBytes = file.readAll();
    check();
    return true;
}

void ReceiptFileVerificationDialog::chooseKeyFile()
{
    const QString near = m_keyPath.isEmpty() ? QFileInfo(m_receiptPath).absolutePath() : m_keyPath;
    const QString path = m_prompter.choosePublicKeyFile(near);
    if (path.isEmpty()) {
        m_directoryKeys->setChecked(!m_keyFromFile);
        m_fileKey->setChecked(bool(m_keyFromFile));
        return;
    }
    QFile file(path);
    QString error;
    std::optional<PublicKey> key;
    if (file.open(QIODevice::ReadOnly))
        key = PublicKey::fromPem(file.readAll(), &error);
    else
        error = file.errorString();
    if (!key) {
        m_prompter.showError(tr("Public Key"), tr("%1 is not a usable public key: %2").arg(path, error));
        return;
    }
    m_keyPath = path;
    m_keyFromFile = key;
    m_fileKey->setChecked(true);
    check();
}

void ReceiptFileVerificationDialog::useDirectoryKeys()
{
    m_keyFromFile.reset();
    m_directoryKeys->setChecked(true);
    check();
}

void ReceiptFileVerificationDialog::check()
{
    if (m_receiptPath.isEmpty()) {
        showOutcome();
        return;
    }
    const QList<PublicKey> keys = m_keyFromFile ? QList<PublicKey>{*m_keyFromFile} : m_ledger.publicKeys();
    // Compared with the stored copy, a changed field is named, not only "invalid".
    const QJsonDocument document = QJsonDocument::fromJson(m_receiptBytes);
    m_stored.reset();
    const StoreResult<Receipt> found =
        m_ledger.receipts().find(document.object().value(u"invocation_id"_s).toString());
    if (found.ok())
        m_stored = found.value().toJson();
    m_outcome = ReceiptFileCheck::check(m_receiptBytes, keys, m_stored);
    m_checked = true;
    showOutcome();
}

QString ReceiptFileVerificationDialog::verdict() const
{
    if (!m_checked || !m_outcome.error.isEmpty())
        return {};
    return ReceiptVerifier::name(m_outcome.result);
}

QString ReceiptFileVerificationDialog::summaryText() const
{
    return m_summary->text();
}

void ReceiptFileVerificationDialog::showOutcome()
{
    m_receiptLabel->setText(m_receiptPath.isEmpty() ? tr("no file chosen")
                                                    : QDir::toNativeSeparators(m_receiptPath));
    m_keyLabel->setText(m_keyFromFile ? QFileInfo(m_keyPath).fileName() : QString());
    m_fields->setRowCount(0);
    if (!m_checked) {
        m_verdict->setText(tr("Choose an exported receipt."));
        m_verdict->setStyleSheet(QString());
        m_summary->clear();
        return;
    }
    if (!m_outcome.error.isEmpty()) {
        m_verdict->setText(tr("Not a receipt"));
        m_verdict->setStyleSheet(u"color: #b01c1c;"_s);
        m_summary->setText(m_outcome.error);
        return;
    }
    const QString name = ReceiptVerifier::name(m_outcome.result);
    m_verdict->setText(tr("Signature %1").arg(name));
    switch (m_outcome.result) {
    case ReceiptVerifier::Result::Valid:
        m_verdict->setStyleSheet(u"color: #1b7a2f;"_s);
        m_summary->setText(tr("Every field below is exactly as the engine signed it."));
        break;
    case ReceiptVerifier::Result::Invalid:
        m_verdict->setStyleSheet(u"color: #b01c1c;"_s);
        m_summary->setText(tr("Some field was changed after signing, or another key signed it."));
        break;
    case ReceiptVerifier::Result::NoKey:
        m_verdict->setStyleSheet(u"color: #6b6b6b;"_s);
        m_summary->setText(tr("There is no public key to check the signature with."));
        break;
    }
    if (!m_outcome.comparedWithStored)
        m_summary->setText(m_summary->text() + u' '
                           + tr("This directory holds no receipt of this invocation to compare with."));
    else if (!m_outcome.differing.isEmpty())
        m_summary->setText(
            m_summary->text() + u' '
            + tr("Differs from this directory's copy in: %1.").arg(m_outcome.differing.join(u", "_s)));
    else
        m_summary->setText(m_summary->text() + u' ' + tr("Identical to this directory's copy."));

    QHash<QString, QJsonValue> stored;
    if (m_stored) {
        for (const auto &[field, value] : ReceiptFileCheck::flatten(*m_stored))
            stored.insert(field, value);
    }
    const QColor changed(255, 214, 214);
    for (const auto &[field, value] : ReceiptFileCheck::flatten(m_outcome.receipt)) {
        const int row = m_fields->rowCount();
        m_fields->insertRow(row);
        m_fields->setItem(row, 0, new QTableWidgetItem(field));
        m_fields->setItem(row, 1, new QTableWidgetItem(valueText(value)));
        m_fields->setItem(
            row, 2,
            new QTableWidgetItem(stored.contains(field) ? valueText(stored.value(field)) : QString()));
        if (m_outcome.differing.contains(field)) {
            for (int column = 0; column < 3; ++column)
                m_fields->item(row, column)->setBackground(changed);
        }
    }
}
