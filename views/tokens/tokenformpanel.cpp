#include "views/tokens/tokenformpanel.h"

#include "views/tokens/namelistcompleter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>

#include <limits>

TokenFormPanel::TokenFormPanel(QWidget *parent)
    : QWidget(parent), m_label(new QLineEdit), m_audience(new QLineEdit), m_keys(new QLineEdit),
      m_categories(new QLineEdit), m_keysCompleter(new NameListCompleter(m_keys)),
      m_categoriesCompleter(new NameListCompleter(m_categories)), m_unknownNames(new QLabel),
      m_risk(new QComboBox), m_pin(new QComboBox),
      m_ownerGate(new QCheckBox(tr("Each call also needs the owner present"))),
      m_fixedBodyOn(new QCheckBox(tr("Only this body:"))), m_fixedBody(new QPlainTextEdit),
      m_ceilingOn(new QCheckBox(tr("At most"))), m_ceiling(new QSpinBox),
      m_expiryOn(new QCheckBox(tr("Expires at (UTC)"))), m_expiry(new QDateTimeEdit)
{
    setObjectName(QStringLiteral("tokenForm"));
    m_label->setObjectName(QStringLiteral("tokenLabel"));
    m_audience->setObjectName(QStringLiteral("tokenAudience"));
    m_audience->setPlaceholderText(tr("who presents it, e.g. agent:planner"));
    m_keys->setObjectName(QStringLiteral("tokenKeys"));
    m_keys->setPlaceholderText(tr("KEY_ONE, KEY_TWO"));
    m_categories->setObjectName(QStringLiteral("tokenCategories"));
    m_categories->setPlaceholderText(tr("category, another"));
    m_unknownNames->setObjectName(QStringLiteral("tokenUnknownNames"));
    m_unknownNames->setWordWrap(true);
    m_unknownNames->setTextFormat(Qt::PlainText);
    m_unknownNames->setStyleSheet(QStringLiteral("QLabel { color: #7a4d00; }"));
    m_unknownNames->hide();
    for (QLineEdit *edit : {m_keys, m_categories})
        connect(edit, &QLineEdit::textChanged, this, &TokenFormPanel::warnAboutUnknownNames);
    m_risk->setObjectName(QStringLiteral("tokenRiskCeiling"));
    m_risk->addItem(tr("low: not sensitive rows"), QStringLiteral("low"));
    m_risk->addItem(tr("high: sensitive rows too"), QStringLiteral("high"));
    m_pin->setObjectName(QStringLiteral("tokenPin"));
    m_pin->setToolTip(
        tr("Refuse the token as soon as this row's contract changes. A pinned token reaches that "
           "row only."));
    m_ownerGate->setObjectName(QStringLiteral("tokenOwnerGate"));
    m_fixedBodyOn->setObjectName(QStringLiteral("tokenFixedBodyOn"));
    m_fixedBody->setObjectName(QStringLiteral("tokenFixedBody"));
    m_fixedBody->setMaximumHeight(60);
    m_ceilingOn->setObjectName(QStringLiteral("tokenCeilingOn"));
    m_ceiling->setObjectName(QStringLiteral("tokenCeiling"));
    m_ceiling->setRange(0, std::numeric_limits<int>::max());
    m_ceiling->setSuffix(tr(" bytes"));
    m_expiryOn->setObjectName(QStringLiteral("tokenExpiryOn"));
    m_expiry->setObjectName(QStringLiteral("tokenExpiry"));
    m_expiry->setTimeSpec(Qt::UTC);
    m_expiry->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
    m_expiry->setCalendarPopup(true);
    for (auto [check, field] : {std::pair<QCheckBox *, QWidget *>{m_fixedBodyOn, m_fixedBody},
                                {m_ceilingOn, m_ceiling},
                                {m_expiryOn, m_expiry}}) {
        field->setEnabled(false);
        connect(check, &QCheckBox::toggled, field, &QWidget::setEnabled);
    }

    auto *ceilingRow = new QHBoxLayout;
    ceilingRow->addWidget(m_ceilingOn);
    ceilingRow->addWidget(m_ceiling, 1);
    auto *expiryRow = new QHBoxLayout;
    expiryRow->addWidget(m_expiryOn);
    expiryRow->addWidget(m_expiry, 1);
    auto *create = new QPushButton(tr("Create Token"));
    create->setObjectName(QStringLiteral("createTokenButton"));
    auto *cancel = new QPushButton(tr("Cancel"));
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(cancel);
    buttons->addWidget(create);
    connect(create, &QPushButton::clicked, this, &TokenFormPanel::createRequested);
    connect(cancel, &QPushButton::clicked, this, &TokenFormPanel::cancelled);

    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Label:"), m_label);
    form->addRow(tr("Audience:"), m_audience);
    form->addRow(tr("Keys:"), m_keys);
    form->addRow(tr("Categories:"), m_categories);
    form->addRow(QString(), m_unknownNames);
    form->addRow(tr("Risk ceiling:"), m_risk);
    form->addRow(tr("Pin contract of:"), m_pin);
    form->addRow(QString(), m_ownerGate);
    form->addRow(m_fixedBodyOn, m_fixedBody);
    form->addRow(tr("Payload:"), ceilingRow);
    form->addRow(tr("Expiry:"), expiryRow);
    form->addRow(buttons);
}

void TokenFormPanel::reset(const TokenScopeCheck::Names &known)
{
    m_known = known;
    m_keysCompleter->setNames(known.keys);
    m_categoriesCompleter->setNames(known.categories);
    for (QLineEdit *edit : {m_label, m_audience, m_keys, m_categories})
        edit->clear();
    m_risk->setCurrentIndex(0);
    m_pin->clear();
    m_pin->addItem(tr("(no pin)"), QString());
    for (const QString &key : known.keys)
        m_pin->addItem(key, key);
    m_ownerGate->setChecked(false);
    for (QCheckBox *check : {m_fixedBodyOn, m_ceilingOn, m_expiryOn})
        check->setChecked(false);
    m_fixedBody->clear();
    m_ceiling->setValue(0);
    m_expiry->setDateTime(QDateTime::currentDateTimeUtc().addDays(30));
}

CapabilityToken TokenFormPanel::spec() const
{
    CapabilityToken token;
    token.label = m_label->text().trimmed();
    token.audience = m_audience->text().trimmed();
    token.allowedKeys = CapabilityToken::splitList(m_keys->text());
    token.allowedCategories = CapabilityToken::splitList(m_categories->text());
    token.riskCeiling = m_risk->currentData().toString();
    token.ownerGate = m_ownerGate->isChecked();
    if (m_fixedBodyOn->isChecked())
        token.fixedBody = m_fixedBody->toPlainText();
    if (m_ceilingOn->isChecked())
        token.payloadCeiling = m_ceiling->value();
    if (m_expiryOn->isChecked())
        token.expiresAt = m_expiry->dateTime().toUTC().toString(Qt::ISODateWithMs);
    return token;
}

void TokenFormPanel::warnAboutUnknownNames()
{
    const QString unknown = TokenScopeCheck::describe(TokenScopeCheck::unknown(spec(), m_known));
    m_unknownNames->setText(
        unknown.isEmpty()
            ? QString()
            : tr("\u26a0 Not in this directory: %1. The token can still be made; it reaches such a "
                 "row once one exists.")
                  .arg(unknown));
    m_unknownNames->setVisible(!unknown.isEmpty());
}

QString TokenFormPanel::pinKey() const
{
    return m_pin->currentData().toString();
}
