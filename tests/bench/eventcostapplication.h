#pragma once

#include <QApplication>
#include <QEvent>
#include <QMetaEnum>
#include <QThread>

#include <algorithm>
#include <ctime>

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
        // Other threads' events come through here too; only the GUI thread's own count.
        if (!m_counting || m_depth > 0 || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        ++m_depth;
        const double before = threadCpuMs();
        const bool handled = QApplication::notify(receiver, event);
        const double spent = threadCpuMs() - before;
        --m_depth;
        if (spent > m_costliest.cpuMs)
            m_costliest = {spent, describe(receiver, event)};
        return handled;
    }

private:
    static double threadCpuMs()
    {
        timespec now{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        return double(now.tv_sec) * 1000.0 + double(now.tv_nsec) / 1e6;
    }

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
