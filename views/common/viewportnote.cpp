#include "views/common/viewportnote.h"

#include <QAbstractScrollArea>
#include <QEvent>

ViewportNote::ViewportNote(QAbstractScrollArea *area) : QLabel(area->viewport())
{
    setObjectName(QStringLiteral("viewportNote"));
    // At the top: a dock squeezed on a laptop screen shows only the top of its list.
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    setWordWrap(true);
    setMargin(fontMetrics().height());
    setForegroundRole(QPalette::PlaceholderText);
    setAttribute(Qt::WA_TransparentForMouseEvents);
    area->viewport()->installEventFilter(this);
    hide();
}

void ViewportNote::setNote(const QString &text)
{
    setText(text);
    fitViewport();
    setVisible(!text.isEmpty());
}

bool ViewportNote::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == parent() && event->type() == QEvent::Resize)
        fitViewport();
    return QLabel::eventFilter(watched, event);
}

void ViewportNote::fitViewport()
{
    setGeometry(parentWidget()->rect());
}
