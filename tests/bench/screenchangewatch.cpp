#include "tests/bench/screenchangewatch.h"

#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>

#include <poll.h>

ScreenChangeWatch::ScreenChangeWatch(const QString &display)
{
    m_display = XOpenDisplay(display.toLocal8Bit().constData());
    if (!m_display) {
        m_error = QStringLiteral("cannot open display %1").arg(display);
        return;
    }
    int errorBase = 0;
    int major = 1;
    int minor = 1;
    // The protocol asks a client to agree on a version before any other request.
    if (!XDamageQueryExtension(m_display, &m_damageEventBase, &errorBase)
        || !XDamageQueryVersion(m_display, &major, &minor)) {
        m_error = QStringLiteral("display %1 has no DAMAGE extension").arg(display);
        return;
    }
    const Window root = DefaultRootWindow(m_display);
    XSelectInput(m_display, root, SubstructureNotifyMask);
    // Raw rectangles: one event per drawing, so no change is folded into an earlier one.
    m_damage = XDamageCreate(m_display, root, XDamageReportRawRectangles);
    XSync(m_display, False);
}

ScreenChangeWatch::~ScreenChangeWatch()
{
    if (!m_display)
        return;
    if (m_damage)
        XDamageDestroy(m_display, m_damage);
    XCloseDisplay(m_display);
}

std::vector<ScreenChangeWatch::Event> ScreenChangeWatch::next(int timeoutMs)
{
    std::vector<Event> events;
    if (!m_error.isEmpty())
        return events;
    if (!XPending(m_display)) {
        pollfd connection{ConnectionNumber(m_display), POLLIN, 0};
        poll(&connection, 1, timeoutMs);
    }
    while (XPending(m_display)) {
        XEvent event;
        XNextEvent(m_display, &event);
        if (event.type == m_damageEventBase + XDamageNotify) {
            const auto &damage = reinterpret_cast<const XDamageNotifyEvent &>(event);
            events.push_back({Event::Kind::Changed,
                              QRect(damage.area.x, damage.area.y, damage.area.width, damage.area.height)});
        } else if (event.type == MapNotify && !event.xmap.override_redirect) {
            events.push_back({Event::Kind::WindowMapped, {}});
        }
    }
    return events;
}

void ScreenChangeWatch::discardPending()
{
    while (!next(0).empty()) {
    }
}
