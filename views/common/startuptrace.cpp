#include "views/common/startuptrace.h"

#include <QByteArray>
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

double msSinceMain()
{
    return double(sinceMain().nsecsElapsed()) / 1e6;
}

// QByteArray::number, not printf: QApplication takes the user's locale, which may write
// "212,4", and the benchmark reads these lines.
QByteArray msText(double ms)
{
    return QByteArray::number(ms, 'f', 1).rightJustified(8);
}

void printLine(const QByteArray &line)
{
    std::fputs(line.constData(), stderr);
    std::fflush(stderr);
}

void printMark(double ms, const char *step)
{
    printLine("capdesk startup: " + msText(ms) + " ms  " + step + '\n');
}

} // namespace

void StartupTrace::begin()
{
    if (enabled())
        sinceMain().start();
}

void StartupTrace::mark(const char *step)
{
    if (enabled() && sinceMain().isValid())
        printMark(msSinceMain(), step);
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
        // One reading for both, so the settled line never comes before the first paint's.
        m_lastPaintMs = msSinceMain();
        if (!m_painted && watched == m_table) {
            m_painted = true;
            printMark(m_lastPaintMs, "first table paint");
            m_settleTimer = startTimer(kSettleMs / 3);
        }
    }
    return QObject::eventFilter(watched, event);
}

void StartupTrace::timerEvent(QTimerEvent *event)
{
    const double now = msSinceMain();
    if (event->timerId() != m_settleTimer || now - m_lastPaintMs < kSettleMs)
        return;
    killTimer(m_settleTimer);
    printLine("capdesk startup: " + msText(m_lastPaintMs) + " ms  settled (the last paint; none for "
              + QByteArray::number(kSettleMs) + " ms after, printed at " + msText(now).trimmed() + " ms)\n");
    deleteLater();
}
