#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

class QWidget;

// Measures how long the GUI thread stops answering while a test drives an action.
// - A heartbeat timer: the largest gap between two beats is the longest stall.
// - QThread::loopLevel() at every beat: a nested event loop (a blocking dialog, a
//   QEventLoop waiting on the network) keeps timers firing while real input waits, so a
//   beat seen above loop level 1 counts as a stall of its own.
// - Synthetic key events posted to a hidden receiver at every beat: the worst time from
//   posting to delivery is what a user typing meanwhile would feel.
// - The GUI thread's own CPU time between two beats: the largest is the stall the app
//   itself caused, which, unlike the wall-clock gap, does not grow when other processes
//   take the cores.
// Create it on the GUI thread, start() before the action, read the numbers after stop().
class GuiStallProbe final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GuiStallProbe)

public:
    explicit GuiStallProbe(int periodMs = 5, QObject *parent = nullptr);
    ~GuiStallProbe() override;

    void start();
    void stop();

    qint64 largestGapMs() const { return m_largestGapMs; }
    // The most CPU the GUI thread spent between two beats (not always the largest gap's).
    double largestBusyMs() const { return m_largestBusyMs; }
    qint64 worstKeyDelayMs() const { return m_worstKeyDelayMs; }
    int keysDelivered() const { return m_keysDelivered; }
    int keysPosted() const { return m_keysPosted; }
    // The deepest event loop a beat ran in (1 = the application's own loop only).
    int deepestLoopLevel() const { return m_deepestLoopLevel; }
    // The calling thread's CPU time so far.
    static double threadCpuMs();
    // One line for a failing QVERIFY2 or a benchmark's output.
    QString summary() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void beat();

    QTimer m_timer;
    QElapsedTimer m_clock;
    QPointer<QWidget> m_receiver;
    qint64 m_lastBeatMs = 0;
    qint64 m_largestGapMs = 0;
    double m_lastBeatCpuMs = 0;
    double m_largestBusyMs = 0;
    qint64 m_worstKeyDelayMs = 0;
    int m_keysPosted = 0;
    int m_keysDelivered = 0;
    int m_deepestLoopLevel = 0;
    bool m_running = false;
};
