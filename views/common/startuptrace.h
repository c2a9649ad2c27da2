#pragma once

#include <QObject>

class QWidget;

// CAPDESK_TRACE_STARTUP=1: capdesk prints on stderr when each step of its start-up ended,
// in milliseconds since main() began ("capdesk startup:   212.4 ms  first table paint"),
// so the path to the first settled frame can be profiled without a profiler. Off, every
// call returns at once.
class StartupTrace final : public QObject
{
    Q_OBJECT

public:
    // A paint-free stretch this long after the first paint counts as settled.
    static constexpr int kSettleMs = 300;

    // Called first thing in main(): the clock starts here.
    static void begin();
    static void mark(const char *step);
    // Marks `table`'s first paint, then "settled" once kSettleMs pass with no paint of any
    // widget (a blinking caret counts too). A paint is stamped as it is delivered, before
    // it is drawn and flushed. The settled line also says when it was printed, so a
    // process that reads it can tell when the last paint was.
    static void watchPaints(QWidget *table);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void timerEvent(QTimerEvent *event) override;

private:
    StartupTrace(QWidget *table, QObject *parent) : QObject(parent), m_table(table) {}

    QWidget *m_table;
    bool m_painted = false;
    int m_settleTimer = 0;
    double m_lastPaintMs = 0;
};
