#include "views/editor/nullableintedit.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QScopedValueRollback>
#include <QSpinBox>

#include <algorithm>
#include <limits>

NullableIntEdit::NullableIntEdit(QWidget *parent)
    : QWidget(parent), m_set(new QCheckBox(tr("set"), this)), m_number(new QSpinBox(this))
{
    m_number->setRange(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
    m_number->setEnabled(false);
    setFocusProxy(m_number);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_set);
    layout->addWidget(m_number, 1);

    connect(m_set, &QCheckBox::toggled, m_number, &QWidget::setEnabled);
    connect(m_set, &QCheckBox::clicked, this, [this](bool set) {
        if (!m_setting)
            emit edited(set ? QVariant(qint64(m_number->value())) : QVariant());
    });
    connect(m_number, &QSpinBox::valueChanged, this, [this](int number) {
        if (!m_setting && m_set->isChecked())
            emit edited(qint64(number));
    });
}

std::optional<qint64> NullableIntEdit::value() const
{
    return m_set->isChecked() ? std::optional<qint64>(m_number->value()) : std::nullopt;
}

void NullableIntEdit::setValue(std::optional<qint64> value)
{
    const QScopedValueRollback guard(m_setting, true);
    m_set->setChecked(value.has_value());
    // The spin box holds int; real seq values are small, larger ones are shown clamped.
    if (value)
        m_number->setValue(int(std::clamp<qint64>(*value, m_number->minimum(), m_number->maximum())));
}
