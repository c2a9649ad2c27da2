#pragma once

#include <QCoreApplication>
#include <QEvent>
#include <QTableView>

// Notices when a table's viewport has painted, so "first painted rows" is measured to the
// paint itself rather than to the model being ready.
class PaintProbe final : public QObject
{
public:
    bool painted = false;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            painted = true;
        return QObject::eventFilter(watched, event);
    }
};

inline void waitForPaint(QTableView &view, PaintProbe &probe)
{
    probe.painted = false;
    view.viewport()->update();
    while (!probe.painted)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}
