#include "tests/support/guistallprobe.h"

#include <QCoreApplication>
#include <QKeyEvent>
#include <QThread>
#include <QWidget>

#include <ctime>

namespace {

// The post time travels in the event's text, so no table of pending events is needed.
constexpr Qt::Key kProbeKey = Qt::Key_F35;

} // namespace

double GuiStallProbe::threadCpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1000.0 + double(now.tv_nsec) / 1e6;
}

GuiStallProbe::GuiStallProbe(int periodMs, QObject *parent) : QObject(parent), m_receiver(new QWidget)
{
    m_timer.setInterval(periodMs);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &GuiStallProbe::beat);
    m_receiver->setAttribute(Qt::WA_DontShowOnScreen);
    m_receiver->installEventFilter(this);
}

GuiStallProbe::~GuiStallProbe()
{
    delete m_receiver;
}

void GuiStallProbe::start()
{
    m_clock.start();
    m_lastBeatMs = 0;
    m_largestGapMs = 0;
    m_lastBeatCpuMs = threadCpuMs();
    m_largestBusyMs = 0;
    m_worstKeyDelayMs = 0;
    m_keysPosted = 0;
    m_keysDelivered = 0;
    m_deepestLoopLevel = 0;
    m_running = true;
    m_timer.start();
}

void GuiStallProbe::stop()
{
    // Keys still queued count with their delay so far: a stall at the very end is a stall.
    QCoreApplication::sendPostedEvents(m_receiver, QEvent::KeyPress);
    m_timer.stop();
    beat();
    m_running = false;
}

void GuiStallProbe::beat()
{
    if (!m_running)
        return;
    const qint64 now = m_clock.elapsed();
    m_largestGapMs = qMax(m_largestGapMs, now - m_lastBeatMs);
    m_lastBeatMs = now;
    const double cpu = threadCpuMs();
    m_largestBusyMs = qMax(m_largestBusyMs, cpu - m_lastBeatCpuMs);
    m_lastBeatCpuMs = cpu;
    m_deepestLoopLevel = qMax(m_deepestLoopLevel, QThread::currentThread()->loopLevel());
    if (m_timer.isActive()) {
        QCoreApplication::postEvent(
            m_receiver, new QKeyEvent(QEvent::KeyPress, kProbeKey, Qt::NoModifier, QString::number(now)));
        ++m_keysPosted;
    }
}

bool GuiStallProbe::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_receiver && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == kProbeKey && m_running) {
            m_worstKeyDelayMs = qMax(m_worstKeyDelayMs, m_clock.elapsed() - key->text().toLongLong());
            ++m_keysDelivered;
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

QString GuiStallProbe::summary() const
{
    return QStringLiteral(
               "largest GUI gap %1 ms, most GUI-thread CPU between two beats %6 ms, worst key delay "
               "%2 ms (%3 of %4 keys), deepest loop level %5")
        .arg(m_largestGapMs)
        .arg(m_worstKeyDelayMs)
        .arg(m_keysDelivered)
        .arg(m_keysPosted)
        .arg(m_deepestLoopLevel)
        .arg(m_largestBusyMs, 0, 'f', 1);
}
