#include "views/remote/connectionstatuslabel.h"

#include "views/remote/connectionmonitor.h"

ConnectionStatusLabel::ConnectionStatusLabel(ConnectionMonitor &monitor, QWidget *parent)
    : QLabel(parent), m_monitor(monitor)
{
    setObjectName(QStringLiteral("connectionStatus"));
    connect(&m_monitor, &ConnectionMonitor::changed, this, &ConnectionStatusLabel::follow);
    follow();
}

void ConnectionStatusLabel::follow()
{
    using State = ConnectionMonitor::State;
    const State state = m_monitor.state();
    setVisible(state != State::None);
    if (state == State::None) {
        clear();
        return;
    }
    const QString server = tr("Server: %1 — %2").arg(m_monitor.name(), m_monitor.location());
    switch (state) {
    case State::Online: {
        QString text =
            m_monitor.latencyMs() >= 0 ? tr("%1 · %2 ms").arg(server).arg(m_monitor.latencyMs()) : server;
        if (const int requests = m_monitor.requestsInFlight(); requests > 0)
            text +=
                requests == 1 ? tr(" · 1 request in flight") : tr(" · %1 requests in flight").arg(requests);
        setText(text);
        setToolTip(
            tr("Connected. The latency is the last request's round trip; the server is pinged every %1 s.")
                .arg(ConnectionMonitor::defaultPingIntervalMs / 1000));
        setStyleSheet(QString());
        break;
    }
    case State::Offline:
        setText(tr("%1 · offline").arg(server));
        setToolTip(tr("No answer: %1").arg(m_monitor.failure()));
        setStyleSheet(QStringLiteral("color: #b3261e;"));
        break;
    case State::KeyRefused:
        setText(tr("%1 · key refused").arg(server));
        setToolTip(tr("The server answered 401: it does not accept this profile's owner key."));
        setStyleSheet(QStringLiteral("color: #b3261e;"));
        break;
    case State::None:
        break;
    }
}
