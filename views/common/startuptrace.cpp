#include "views/common/startuptrace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QTimerEvent>
#include <QWidget>

#include <cstdio>

namespace {

QElapsedTimer &sinceMain()
{
    static QElapsedTimer started;
    return started;
}

bool enabled()
{
    static const bool on = qEnvironmentVariableIntValue("CAPDESK_TRACE_STARTUP") != 0;
    return on;
}

} // namespace

void StartupTrace::begin()
{
    if (enabled())
        sinceMain().start();
}

void StartupTrace::mark(const char *step)
{
    if (!enabled() || !sinceMain().isValid())
        return;
    std::fprintf(stderr, "capdesk startup: %8.1f ms  %s\n", double(sinceMain().nsecsElapsed()) / 1e6, step);
    std::fflush(stderr);
}

void StartupTrace::watchPaints(QWidget *table)
{
    if (!enabled() || !sinceMain().isValid())
        return;
    QCoreApplication::instance()->installEventFilter(new StartupTrace(table, table));
}

bool StartupTrace::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint) {
        m_lastPaintMs = sinceMain().elapsed();
        if (!m_painted && watched == m_table) {
            m_painted = true;
            mark("first table paint");
            m_settleTimer = startTimer(kSettleMs / 3);
        }
    }
    return QObject::eventFilter(watched, event);
}

void StartupTrace::timerEvent(QTimerEvent *event)
{
    if (event->timerId() != m_settleTimer || sinceMain().elapsed() - m_lastPaintMs < kSettleMs)
        return;
    killTimer(m_settleTimer);
    std::fprintf(
        stderr,
        "capdesk startup: %8.1f ms  settled (the last paint; none for %d ms after, printed at %.1f ms)\n",
        double(m_lastPaintMs), kSettleMs, double(sinceMain().nsecsElapsed()) / 1e6);
    std::fflush(stderr);
    deleteLater();
}
