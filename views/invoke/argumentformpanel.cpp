#include "views/invoke/argumentformpanel.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QVBoxLayout>

ArgumentFormPanel::ArgumentFormPanel(QWidget *parent)
    : QWidget(parent), m_form(new QFormLayout), m_raw(new QLineEdit(this)),
      m_noArgs(new QLabel(tr("This row declares no arguments."), this)), m_pipeWarning(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(m_form);
    layout->addWidget(m_noArgs);

    auto *rawForm = new QFormLayout;
    m_raw->setObjectName(QStringLiteral("rawBody"));
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_raw->setPlaceholderText(tr("the whole body, args separated by |"));
    m_raw->setClearButtonEnabled(true);
    rawForm->addRow(tr("Body"), m_raw);
    layout->addLayout(rawForm);

    m_noArgs->setEnabled(false);
    m_pipeWarning->setObjectName(QStringLiteral("pipeWarning"));
    m_pipeWarning->setWordWrap(true);
    m_pipeWarning->setStyleSheet(QStringLiteral("color: #b35900;"));
    m_pipeWarning->hide();
    layout->addWidget(m_pipeWarning);

    connect(m_raw, &QLineEdit::textEdited, this, &ArgumentFormPanel::rawEdited);
    rebuildFields();
}

void ArgumentFormPanel::setSpec(const ArgumentSpec &spec)
{
    if (spec == m_spec)
        return;
    m_spec = spec;
    rebuildFields();
}

void ArgumentFormPanel::setBody(const QString &body)
{
    if (body == m_body)
        return;
    m_body = body;
    m_raw->setText(body);
    showBodyInFields();
    emit bodyChanged(m_body);
}

QLineEdit *ArgumentFormPanel::argumentEdit(int index) const
{
    return index >= 1 && index <= m_fields.size() ? m_fields[index - 1] : nullptr;
}

void ArgumentFormPanel::rebuildFields()
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_fields.clear();
    for (const ArgumentSlot &slot : m_spec.arguments()) {
        auto *edit = new QLineEdit(this);
        edit->setObjectName(QStringLiteral("argument%1").arg(slot.index));
        edit->setPlaceholderText(slot.description.isEmpty() ? slot.name : slot.description);
        edit->setToolTip(slot.takesRest ? tr("$%1+: the rest of the body; may contain |").arg(slot.index)
                                        : tr("$%1").arg(slot.index));
        connect(edit, &QLineEdit::textEdited, this, &ArgumentFormPanel::fieldEdited);
        QString label = QStringLiteral("%1 ($%2%3)")
                            .arg(slot.name)
                            .arg(slot.index)
                            .arg(slot.takesRest ? QStringLiteral("+") : QString());
        if (slot.required)
            label += u'*';
        m_form->addRow(label, edit);
        m_fields.append(edit);
    }
    m_noArgs->setVisible(m_fields.isEmpty());
    showBodyInFields();
}

void ArgumentFormPanel::showBodyInFields()
{
    QScopedValueRollback guard(m_updating, true);
    const QStringList values = m_spec.splitBody(m_body);
    for (qsizetype i = 0; i < m_fields.size(); ++i) {
        if (m_fields[i]->text() != values.value(i))
            m_fields[i]->setText(values.value(i));
    }
    showPipeWarning(values.mid(0, m_fields.size()));
}

void ArgumentFormPanel::fieldEdited()
{
    if (m_updating)
        return;
    QStringList values;
    for (const QLineEdit *field : std::as_const(m_fields))
        values.append(field->text());
    m_body = m_spec.joinBody(values);
    m_raw->setText(m_body);
    showPipeWarning(values);
    emit bodyChanged(m_body);
}

void ArgumentFormPanel::rawEdited(const QString &text)
{
    m_body = text;
    showBodyInFields();
    emit bodyChanged(m_body);
}

void ArgumentFormPanel::showPipeWarning(const QStringList &values)
{
    QStringList names;
    for (const int index : m_spec.misplacedPipes(values))
        names.append(m_spec.arguments().value(index).name);
    // A '|' in a plain argument shifts every later one: the call would see other args
    // than the fields show.
    m_pipeWarning->setText(tr("A | in %1 starts a new argument: only a $N+ argument may hold pipes.")
                               .arg(names.join(QStringLiteral(", "))));
    m_pipeWarning->setVisible(!names.isEmpty());
}
