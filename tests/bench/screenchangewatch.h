#pragma once

#include <QRect>
#include <QString>

#include <vector>

struct _XDisplay;

// What an X server says changed on its screen, seen from outside every program on it: the
// DAMAGE extension on the root window reports each rectangle any client draws, and
// SubstructureNotify each top-level window mapped. It needs no help from the program
// watched, so capdesk and a program we did not write are timed by one rule.
class ScreenChangeWatch final
{
public:
    struct Event
    {
        enum class Kind { WindowMapped, Changed };
        Kind kind;
        QRect area;
    };

    explicit ScreenChangeWatch(const QString &display);
    ~ScreenChangeWatch();
    ScreenChangeWatch(const ScreenChangeWatch &) = delete;
    ScreenChangeWatch &operator=(const ScreenChangeWatch &) = delete;

    // Empty when the watch is on; otherwise why not (no display, no DAMAGE extension).
    QString error() const { return m_error; }

    // What the server reported, in order, waiting up to timeoutMs for the first report.
    std::vector<Event> next(int timeoutMs);

    // Forgets what was reported so far: the next program starts from a quiet screen.
    void discardPending();

private:
    _XDisplay *m_display = nullptr;
    unsigned long m_damage = 0;
    int m_damageEventBase = 0;
    QString m_error;
};
