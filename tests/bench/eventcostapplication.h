#pragma once

#include "tests/support/guistallprobe.h"

#include <QApplication>
#include <QEvent>
#include <QMetaEnum>
#include <QThread>

// A QApplication that notes, for every event the GUI thread's own loop delivers, the CPU
// time that thread spent on it. Wall-clock gaps (GuiStallProbe) grow with whatever else
// the machine runs; the GUI thread's CPU time per event does not, so it says which event
// is costly on a busy machine too, and names it.
class EventCostApplication final : public QApplication
{
public:
    using QApplication::QApplication;

    struct Cost
    {
        double cpuMs = 0;
        QString what;
    };

    void startCounting()
    {
        m_costliest = {};
        m_counting = true;
    }
    void stopCounting() { m_counting = false; }
    const Cost &costliest() const { return m_costliest; }

    bool notify(QObject *receiver, QEvent *event) override
    {
        // Other threads' events come through here too; only the GUI thread's own count, and
        // only it touches the counters.
        if (QThread::currentThread() != thread() || !m_counting || m_depth > 0)
            return QApplication::notify(receiver, event);
        // Named before delivery: a DeferredDelete (or a handler) may delete the receiver.
        const QString what = describe(receiver, event);
        ++m_depth;
        const double before = GuiStallProbe::threadCpuMs();
        const bool handled = QApplication::notify(receiver, event);
        const double spent = GuiStallProbe::threadCpuMs() - before;
        --m_depth;
        if (spent > m_costliest.cpuMs)
            m_costliest = {spent, what};
        return handled;
    }

private:
    static QString describe(const QObject *receiver, const QEvent *event)
    {
        const char *type = QMetaEnum::fromType<QEvent::Type>().valueToKey(event->type());
        return QStringLiteral("%1 to %2%3")
            .arg(QString::fromLatin1(type ? type : "event"),
                 QString::fromLatin1(receiver->metaObject()->className()),
                 receiver->objectName().isEmpty() ? QString()
                                                  : QStringLiteral(" \"%1\"").arg(receiver->objectName()));
    }

    bool m_counting = false;
    int m_depth = 0;
    Cost m_costliest;
};
