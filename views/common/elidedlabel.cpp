#include "views/common/elidedlabel.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QMenu>

namespace {

constexpr int kMinimumCharacters = 12;

QString onOneLine(QString text)
{
    for (QChar &c : text) {
        if (c == u'\n' || c == u'\r' || c == QChar::LineSeparator || c == QChar::ParagraphSeparator)
            c = u' ';
    }
    return text;
}

} // namespace

ElidedLabel::ElidedLabel(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void ElidedLabel::setFullText(const QString &text)
{
    if (text == m_full)
        return;
    m_full = text;
    m_oneLine = onOneLine(text);
    setAccessibleName(m_full);
    updateGeometry();
    elide();
}

QSize ElidedLabel::sizeHint() const
{
    const QMargins margins = contentsMargins();
    // One pixel over the rounded advance: elidedText() measures in fractions and would cut a
    // text given exactly its rounded width.
    return {fontMetrics().horizontalAdvance(m_oneLine) + 1 + margins.left() + margins.right(),
            minimumSizeHint().height()};
}

QSize ElidedLabel::minimumSizeHint() const
{
    const QMargins margins = contentsMargins();
    return {fontMetrics().averageCharWidth() * kMinimumCharacters + margins.left() + margins.right(),
            fontMetrics().height() + margins.top() + margins.bottom()};
}

void ElidedLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    elide();
}

// A new font or style (a bold style sheet, a font of the same height) widens or narrows
// the text, and new margins the room, without a resize.
void ElidedLabel::changeEvent(QEvent *event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::ContentsRectChange) {
        updateGeometry();
        elide();
    }
}

void ElidedLabel::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    QAction *copy = menu.addAction(tr("Copy"));
    copy->setEnabled(!m_full.isEmpty());
    connect(copy, &QAction::triggered, this, [this] { QGuiApplication::clipboard()->setText(m_full); });
    menu.exec(event->globalPos());
}

void ElidedLabel::elide()
{
    const QString shown = fontMetrics().elidedText(m_oneLine, Qt::ElideRight, contentsRect().width());
    setText(shown);
    setToolTip(shown == m_full ? QString() : m_full);
}
