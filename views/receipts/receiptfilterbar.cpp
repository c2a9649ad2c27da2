#include "views/receipts/receiptfilterbar.h"

#include "dispatch/receipts/receipt.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSignalBlocker>

#include <algorithm>
#include <memory>

ReceiptFilterBar::ReceiptFilterBar(QWidget *parent)
    : QWidget(parent), m_key(new QLineEdit(this)), m_status(new QComboBox(this)),
      m_actor(new QComboBox(this)), m_useFrom(new QCheckBox(tr("From"), this)),
      m_from(timeEdit(QStringLiteral("receiptFrom"))), m_useTo(new QCheckBox(tr("to"), this)),
      m_to(timeEdit(QStringLiteral("receiptTo"))), m_search(new QLineEdit(this))
{
    m_key->setObjectName(QStringLiteral("receiptKey"));
    m_key->setPlaceholderText(tr("Key contains"));
    m_key->setClearButtonEnabled(true);
    m_status->setObjectName(QStringLiteral("receiptStatus"));
    m_status->addItem(tr("Any status"), QString());
    // As wide as the longer status from the start, so the bar does not shift when the
    // first receipt brings its status in.
    m_status->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_status->setMinimumContentsLength(
        int(std::max(Receipt::provenMaterial.size(), Receipt::ranWithoutMaterial.size())));
    m_actor->setObjectName(QStringLiteral("receiptActor"));
    m_actor->addItem(tr("Any caller"), QString());
    m_actor->setToolTip(tr("Who made the call: the owner, a token, or an MCP client (mcp:NAME)"));
    m_actor->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_search->setObjectName(QStringLiteral("receiptSearch"));
    m_search->setPlaceholderText(tr("Invocation id or trace"));
    m_search->setClearButtonEnabled(true);
    // A range opens on the last day, the span most questions are about.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    m_from->setDateTime(now.addDays(-1));
    m_to->setDateTime(now);
    m_from->setEnabled(false);
    m_to->setEnabled(false);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_key, 2);
    layout->addWidget(m_status);
    layout->addWidget(m_actor);
    layout->addWidget(m_useFrom);
    layout->addWidget(m_from);
    layout->addWidget(m_useTo);
    layout->addWidget(m_to);
    layout->addWidget(m_search, 2);

    connect(m_key, &QLineEdit::textChanged, this, &ReceiptFilterBar::emitFilter);
    connect(m_search, &QLineEdit::textChanged, this, &ReceiptFilterBar::emitFilter);
    connect(m_status, &QComboBox::currentIndexChanged, this, &ReceiptFilterBar::emitFilter);
    connect(m_actor, &QComboBox::currentIndexChanged, this, &ReceiptFilterBar::emitFilter);
    connect(m_useFrom, &QCheckBox::toggled, m_from, &QWidget::setEnabled);
    connect(m_useTo, &QCheckBox::toggled, m_to, &QWidget::setEnabled);
    followClock(m_useFrom, m_from, -1);
    followClock(m_useTo, m_to, 0);
    for (QCheckBox *check : {m_useFrom, m_useTo})
        connect(check, &QCheckBox::toggled, this, &ReceiptFilterBar::emitFilter);
    for (QDateTimeEdit *edit : {m_from, m_to})
        connect(edit, &QDateTimeEdit::dateTimeChanged, this, &ReceiptFilterBar::emitFilter);
}

void ReceiptFilterBar::followClock(QCheckBox *check, QDateTimeEdit *edit, int offsetDays)
{
    auto setByHand = std::make_shared<bool>(false);
    connect(edit, &QDateTimeEdit::dateTimeChanged, this, [setByHand] { *setByHand = true; });
    // Connected before the filter is emitted for the tick, so the filter has the new bound.
    connect(check, &QCheckBox::toggled, this, [edit, offsetDays, setByHand](bool checked) {
        if (!checked || *setByHand)
            return;
        const QSignalBlocker quiet(edit);
        edit->setDateTime(QDateTime::currentDateTimeUtc().addDays(offsetDays));
    });
}

QDateTimeEdit *ReceiptFilterBar::timeEdit(const QString &name)
{
    auto *edit = new QDateTimeEdit(this);
    edit->setObjectName(name);
    // Receipts are stamped in UTC; showing local time here would shift the range.
    edit->setTimeSpec(Qt::UTC);
    edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    edit->setCalendarPopup(true);
    return edit;
}

ReceiptFilter ReceiptFilterBar::filter() const
{
    ReceiptFilter filter;
    filter.key = m_key->text().trimmed();
    filter.status = m_status->currentData().toString();
    filter.actor = m_actor->currentData().toString();
    filter.search = m_search->text().trimmed();
    if (m_useFrom->isChecked())
        filter.fromMsecs = m_from->dateTime().toMSecsSinceEpoch();
    // The edit shows whole seconds, so "to" means to the end of that second.
    if (m_useTo->isChecked())
        filter.toMsecs = m_to->dateTime().toMSecsSinceEpoch() + 999;
    return filter;
}

void ReceiptFilterBar::setStatuses(const QStringList &statuses)
{
    offer(m_status, statuses);
}

void ReceiptFilterBar::setActors(const QStringList &actors)
{
    offer(m_actor, actors);
}

void ReceiptFilterBar::offer(QComboBox *combo, const QStringList &choices)
{
    const QString chosen = combo->currentData().toString();
    const QSignalBlocker quiet(combo);
    while (combo->count() > 1)
        combo->removeItem(1);
    for (const QString &choice : choices)
        combo->addItem(choice, choice);
    // A choice no receipt has any more still filters: keep it offered.
    if (!chosen.isEmpty() && !choices.contains(chosen))
        combo->addItem(chosen, chosen);
    combo->setCurrentIndex(std::max(0, combo->findData(chosen)));
}

void ReceiptFilterBar::clear()
{
    m_quiet = true;
    m_key->clear();
    m_search->clear();
    m_status->setCurrentIndex(0);
    m_actor->setCurrentIndex(0);
    m_useFrom->setChecked(false);
    m_useTo->setChecked(false);
    m_quiet = false;
    emitFilter();
}

void ReceiptFilterBar::emitFilter()
{
    if (!m_quiet)
        emit filterChanged(filter());
}
