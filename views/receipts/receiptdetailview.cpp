#include "views/receipts/receiptdetailview.h"

#include "models/receipttablemodel.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

ReceiptDetailView::ReceiptDetailView(QWidget *parent)
    : QWidget(parent), m_message(new QLabel(this)), m_content(new QWidget(this)),
      m_title(new QLabel(m_content)), m_signature(new QLabel(m_content)), m_drift(new QLabel(m_content)),
      m_jump(new QPushButton(tr("Jump to Row"), m_content)),
      m_copy(new QPushButton(tr("Copy JSON"), m_content)),
      m_export(new QPushButton(tr("Export JSON…"), m_content))
{
    // At the top, level with the list's own note: a dock squeezed on a laptop screen shows
    // only the top of the pane.
    m_message->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(u"color: palette(mid);"_s);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_signature->setObjectName(u"signatureBadge"_s);
    m_drift->setObjectName(u"driftBadge"_s);
    for (QLabel *badge : {m_signature, m_drift}) {
        badge->setAutoFillBackground(true);
        badge->setContentsMargins(6, 1, 6, 1);
    }

    auto *title = new QHBoxLayout;
    title->addWidget(m_title);
    title->addWidget(m_signature);
    title->addWidget(m_drift);
    title->addStretch(1);

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    addField(form, u"invocation_id"_s, tr("Invocation"), true);
    addField(form, u"trace"_s, tr("Trace"), true);
    QLabel *parentLink = addField(form, u"parent"_s, tr("Parent"), true);
    parentLink->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(parentLink, &QLabel::linkActivated, this, &ReceiptDetailView::invocationRequested);
    addField(form, u"key"_s, tr("Key"));
    addField(form, u"actor"_s, tr("Actor"));
    addField(form, u"runner"_s, tr("Runner"));
    addField(form, u"started_at"_s, tr("Started"));
    addField(form, u"duration_ms"_s, tr("Duration"));
    addField(form, u"material"_s, tr("Material"));
    addField(form, u"cost_usd"_s, tr("Cost (USD)"));
    addField(form, u"status"_s, tr("Status"));
    addHexField(form, u"fingerprints.input"_s, tr("Input"));
    addHexField(form, u"fingerprints.output"_s, tr("Output"));
    addHexField(form, u"fingerprints.contract"_s, tr("Contract"));
    addHexField(form, u"current_contract"_s, tr("Row now"));
    addHexField(form, u"signature"_s, tr("Signature"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_jump);
    buttons->addWidget(m_copy);
    buttons->addWidget(m_export);
    buttons->addStretch(1);

    auto *content = new QVBoxLayout(m_content);
    content->setContentsMargins(0, 0, 0, 0);
    content->addLayout(title);
    content->addLayout(form);
    content->addLayout(buttons);
    content->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_message);
    layout->addWidget(m_content);

    connect(m_jump, &QPushButton::clicked, this, [this] { emit rowRequested(m_key); });
    connect(m_copy, &QPushButton::clicked, this, &ReceiptDetailView::copyRequested);
    connect(m_export, &QPushButton::clicked, this, &ReceiptDetailView::exportRequested);
    prompt(false);
}

void ReceiptDetailView::prompt(bool listEmpty)
{
    if (!m_prompting)
        return;
    showMessage(listEmpty ? tr("A receipt's fields and signature show here once the list has one.")
                          : tr("Select a receipt to see every field and check its signature."));
    m_prompting = true;
}

QLabel *ReceiptDetailView::addField(QFormLayout *form, const QString &name, const QString &label,
                                    bool monospace)
{
    auto *value = new QLabel(m_content);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setObjectName(name);
    if (monospace)
        value->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    form->addRow(label, value);
    m_fields.insert(name, value);
    return value;
}

// Fingerprints and the signature are wider than the pane: a frameless read-only line
// shows what fits and still selects and copies the whole value.
void ReceiptDetailView::addHexField(QFormLayout *form, const QString &name, const QString &label)
{
    auto *value = new QLineEdit(m_content);
    value->setObjectName(name);
    value->setReadOnly(true);
    value->setFrame(false);
    value->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    value->setContentsMargins(0, 0, 0, 0);
    QPalette colors = value->palette();
    colors.setColor(QPalette::Base, Qt::transparent);
    value->setPalette(colors);
    form->addRow(label, value);
    m_hexFields.insert(name, value);
}

void ReceiptDetailView::setField(const QString &name, const QString &text)
{
    if (QLineEdit *line = m_hexFields.value(name)) {
        line->setText(text);
        line->setCursorPosition(0);
        return;
    }
    QLabel *label = m_fields.value(name);
    label->setText(text);
    label->setToolTip(text);
}

void ReceiptDetailView::styleBadge(QLabel *badge, const char *background)
{
    // A palette, not a style sheet: restyling on every selection would re-polish the pane.
    QPalette colors = badge->palette();
    colors.setColor(QPalette::Window, QColor::fromString(QLatin1String(background)));
    colors.setColor(QPalette::WindowText, Qt::white);
    badge->setPalette(colors);
}

void ReceiptDetailView::showInspection(const ReceiptInspection &inspection)
{
    m_prompting = false;
    const Receipt &receipt = inspection.receipt;
    m_invocationId = receipt.invocationId;
    m_key = receipt.key;
    m_title->setText(receipt.key);
    setField(u"invocation_id"_s, receipt.invocationId);
    setField(u"trace"_s, receipt.trace);
    setField(u"parent"_s, receipt.parent.isEmpty() ? tr("none (top level)") : receipt.parent);
    if (!receipt.parent.isEmpty())
        m_fields.value(u"parent"_s)->setText(u"<a href=\"%1\">%1</a>"_s.arg(receipt.parent.toHtmlEscaped()));
    setField(u"key"_s, receipt.key);
    setField(u"actor"_s, receipt.actor);
    setField(u"runner"_s, receipt.runner);
    setField(u"started_at"_s, receipt.startedAt);
    setField(u"duration_ms"_s, ReceiptTableModel::durationText(receipt.durationMs));
    setField(u"material"_s, receipt.material ? tr("yes") : tr("no"));
    setField(u"cost_usd"_s, QString::number(receipt.costUsd, 'g', 10));
    setField(u"status"_s, receipt.status);
    setField(u"fingerprints.input"_s, receipt.inputFingerprint);
    setField(u"fingerprints.output"_s, receipt.outputFingerprint);
    setField(u"fingerprints.contract"_s, receipt.contractFingerprint);
    setField(u"signature"_s, receipt.signature);

    m_signatureText = ReceiptVerifier::name(inspection.signature);
    m_signature->setText(tr("signature %1").arg(m_signatureText));
    switch (inspection.signature) {
    case ReceiptVerifier::Result::Valid:
        styleBadge(m_signature, "#1b7a2f");
        break;
    case ReceiptVerifier::Result::Invalid:
        styleBadge(m_signature, "#b01c1c");
        break;
    case ReceiptVerifier::Result::NoKey:
        styleBadge(m_signature, "#6b6b6b");
        break;
    }

    m_drift->setVisible(inspection.drift != ReceiptInspection::Drift::Unchanged);
    m_jump->setEnabled(inspection.drift != ReceiptInspection::Drift::RowGone);
    switch (inspection.drift) {
    case ReceiptInspection::Drift::Unchanged:
        m_drift->clear();
        setField(u"current_contract"_s, tr("unchanged"));
        break;
    case ReceiptInspection::Drift::Changed:
        m_drift->setText(tr("contract changed since"));
        styleBadge(m_drift, "#b35900");
        setField(u"current_contract"_s, inspection.currentContract);
        break;
    case ReceiptInspection::Drift::RowGone:
        m_drift->setText(tr("row deleted"));
        styleBadge(m_drift, "#b01c1c");
        setField(u"current_contract"_s, tr("the row no longer exists"));
        break;
    }
    m_message->hide();
    m_content->show();
}

void ReceiptDetailView::showMessage(const QString &message)
{
    m_prompting = false;
    m_invocationId.clear();
    m_key.clear();
    m_signatureText.clear();
    m_message->setText(message);
    m_content->hide();
    m_message->show();
}

QString ReceiptDetailView::fieldText(const QString &name) const
{
    if (const QLineEdit *line = m_hexFields.value(name))
        return line->text();
    const QLabel *label = m_fields.value(name);
    return label ? label->text() : QString();
}

QString ReceiptDetailView::driftText() const
{
    return m_drift->isVisibleTo(this) ? m_drift->text() : QString();
}

QString ReceiptDetailView::messageText() const
{
    return m_message->isVisibleTo(this) ? m_message->text() : QString();
}
