#include "views/editor/rowtitlebar.h"

#include "views/common/typeicons.h"

#include <QHBoxLayout>
#include <QLabel>

RowTitleBar::RowTitleBar(QWidget *parent)
    : QWidget(parent), m_icon(new QLabel(this)), m_key(new QLabel(this)), m_state(new QLabel(this))
{
    QFont font = m_key->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    m_key->setFont(font);
    m_key->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setObjectName(QStringLiteral("rowState"));
    m_state->setStyleSheet(QStringLiteral("color: palette(mid);"));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_icon);
    layout->addWidget(m_key, 1);
    layout->addWidget(m_state);
}

void RowTitleBar::showRow(const QString &type, const QString &key, State state)
{
    m_icon->setPixmap(TypeIcons::forType(type).pixmap(20, 20));
    m_key->setText(key);
    switch (state) {
    case State::New:
        m_state->setText(tr("new — not saved yet"));
        break;
    case State::Modified:
        m_state->setText(tr("unsaved changes"));
        break;
    case State::Saved:
        m_state->setText(tr("saved"));
        break;
    case State::Loading:
        m_state->setText(tr("loading %1…").arg(key));
        break;
    case State::Saving:
        m_state->setText(tr("saving…"));
        break;
    case State::Unreadable:
        m_state->setText(tr("not read yet: the server did not answer"));
        break;
    }
}

void RowTitleBar::clear()
{
    m_icon->clear();
    m_key->clear();
    m_state->clear();
}

QString RowTitleBar::stateText() const
{
    return m_state->text();
}
