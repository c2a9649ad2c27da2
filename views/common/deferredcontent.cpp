#include "views/common/deferredcontent.h"

#include <QDockWidget>
#include <QVBoxLayout>

#include <utility>

DeferredContent::DeferredContent(QWidget *content, QWidget *parent)
    : QWidget(parent), m_content(content), m_layout(new QVBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_content->setParent(this);
    m_content->hide();
}

void DeferredContent::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    placeWhenSeen();
}

void DeferredContent::followDock(QDockWidget *dock)
{
    connect(dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            placeWhenSeen();
    });
}

// Checked once the events of a show are done: the layouts have placed the holder by then.
void DeferredContent::placeWhenSeen()
{
    if (!m_placed && !std::exchange(m_checking, true))
        QMetaObject::invokeMethod(this, &DeferredContent::placeIfSeen, Qt::QueuedConnection);
}

// Within its window, not moved off it. An empty holder (a dock sized to the empty holder,
// at the window's edge) counts by its corner, edges included.
bool DeferredContent::isSeen() const
{
    const QRect inWindow(mapTo(window(), QPoint(0, 0)), size().expandedTo(QSize(1, 1)));
    return isVisible() && window()->rect().adjusted(0, 0, 1, 1).intersects(inWindow);
}

void DeferredContent::placeIfSeen()
{
    m_checking = false;
    if (m_placed || !isSeen())
        return;
    m_placed = true;
    m_layout->addWidget(m_content);
    m_content->show();
}
