#include "views/remote/connectionmonitor.h"

#include "remote/serverconnection.h"

#include <QtConcurrent>

namespace {

// Methods that carry the owner key (SPEC §10): an answer other than 401 accepts it.
bool carriesOwnerKey(const QByteArray &method)
{
    return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

} // namespace

ConnectionMonitor::ConnectionMonitor(QObject *parent) : QObject(parent)
{
    m_timer.setInterval(defaultPingIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &ConnectionMonitor::pingNow);
    connect(&m_ping, &QFutureWatcherBase::finished, this, [this] { m_pinged.reset(); });
}

ConnectionMonitor::~ConnectionMonitor()
{
    m_ping.waitForFinished();
}

QString ConnectionMonitor::location() const
{
    return m_connection ? m_connection->location() : QString();
}

void ConnectionMonitor::watch(std::shared_ptr<ServerConnection> connection, const QString &name)
{
    if (m_connection)
        disconnect(m_connection.get(), nullptr, this, nullptr);
    m_connection = std::move(connection);
    m_name = name;
    m_reachable = true;
    m_keyRefused = false;
    m_latencyMs = -1;
    m_inFlight = 0;
    m_failure.clear();
    if (m_connection) {
        connect(m_connection.get(), &ServerConnection::requestFinished, this, &ConnectionMonitor::take);
        connect(m_connection.get(), &ServerConnection::inFlightChanged, this, [this](int requests) {
            m_inFlight = requests;
            emit changed();
        });
        m_timer.start();
        pingNow();
    } else {
        m_timer.stop();
    }
    update();
}

void ConnectionMonitor::setPingInterval(int ms)
{
    m_timer.setInterval(ms);
}

void ConnectionMonitor::pingNow()
{
    if (!m_connection || m_ping.isRunning())
        return;
    // The answer arrives through requestFinished like every other; the future only keeps
    // pings from piling up behind a server that does not answer.
    m_pinged = m_connection;
    m_ping.setFuture(QtConcurrent::run([connection = m_pinged.get()] { return connection->ping(); }));
}

void ConnectionMonitor::noteKeyRefused()
{
    m_keyRefused = true;
    update();
}

void ConnectionMonitor::take(const ServerResponse &response)
{
    m_reachable = response.reached();
    if (!m_reachable) {
        m_failure = response.failure;
    } else {
        m_failure.clear();
        m_latencyMs = response.elapsedMs;
        if (response.status == 401)
            m_keyRefused = true;
        else if (carriesOwnerKey(response.method))
            m_keyRefused = false;
    }
    update();
}

void ConnectionMonitor::update()
{
    const State before = m_state;
    m_state = !m_connection  ? State::None
              : !m_reachable ? State::Offline
              : m_keyRefused ? State::KeyRefused
                             : State::Online;
    emit changed();
    if (m_state == State::Online && (before == State::Offline || before == State::KeyRefused))
        emit backOnline();
}
