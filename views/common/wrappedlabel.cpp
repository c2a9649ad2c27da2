#include "views/common/wrappedlabel.h"

#include <QResizeEvent>

namespace {

constexpr int kMinimumCharacters = 20;

} // namespace

WrappedLabel::WrappedLabel(QWidget *parent) : QLabel(parent)
{
    setWordWrap(true);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

// The height of the text at the width it has now; before its first layout, at the width
// its hint asks for.
int WrappedLabel::linesHeight() const
{
    const int width = m_laidOutWidth > 0 ? m_laidOutWidth : QLabel::sizeHint().width();
    return QLabel::heightForWidth(width);
}

QSize WrappedLabel::sizeHint() const
{
    return {QLabel::sizeHint().width(), linesHeight()};
}

QSize WrappedLabel::minimumSizeHint() const
{
    const QMargins margins = contentsMargins();
    return {fontMetrics().averageCharWidth() * kMinimumCharacters + margins.left() + margins.right(),
            linesHeight()};
}

void WrappedLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    if (event->size().width() == m_laidOutWidth)
        return;
    m_laidOutWidth = event->size().width();
    // Narrower or wider, the text takes more or fewer lines: the layout asks again.
    updateGeometry();
}
