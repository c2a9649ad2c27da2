#include "tests/support/latencyproxy.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <deque>
#include <utility>

// Accepts the clients and makes one Pipe per connection; lives on the proxy's thread.
class LatencyProxy::Forwarder final : public QObject
{
public:
    explicit Forwarder(LatencyProxy &proxy) : m_proxy(proxy) { m_clock.start(); }

    quint16 listen(QString *error);
    qint64 nowMs() const { return m_clock.elapsed(); }

private:
    LatencyProxy &m_proxy;
    QTcpServer *m_server = nullptr;
    QElapsedTimer m_clock;
};

// One client connection and its own connection to the target, with the data of each
// direction held until its time.
class LatencyProxy::Pipe final : public QObject
{
public:
    Pipe(QTcpSocket *client, LatencyProxy &proxy, Forwarder &forwarder);
    ~Pipe() override;

private:
    struct Direction
    {
        QTcpSocket *from = nullptr;
        QTcpSocket *to = nullptr;
        int delayMs = 0; // this direction's half of the round trip, fixed when data arrives
        std::atomic<qint64> *counter = nullptr;
        std::deque<std::pair<qint64, QByteArray>> held; // release time, bytes
        qint64 lastReleaseMs = 0;
        bool fromClosed = false;
        QTimer *timer = nullptr;
    };

    void setUp(Direction &direction, QTcpSocket *from, QTcpSocket *to, std::atomic<qint64> *counter);
    void take(Direction &direction);
    void release(Direction &direction);
    void closed(Direction &direction);
    void finishIfDone();
    bool targetReady() const { return m_server->state() == QAbstractSocket::ConnectedState; }
    bool m_targetConnected = false;

    LatencyProxy &m_proxy;
    Forwarder &m_forwarder;
    QTcpSocket *m_client;
    QTcpSocket *m_server;
    Direction m_up; // client → server
    Direction m_down; // server → client
    bool m_finished = false;
};

quint16 LatencyProxy::Forwarder::listen(QString *error)
{
    m_server = new QTcpServer(this);
    if (!m_server->listen(QHostAddress::LocalHost, 0)) {
        if (error)
            *error =
                QStringLiteral("the latency proxy cannot listen on 127.0.0.1: ") + m_server->errorString();
        return 0;
    }
    connect(m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *client = m_server->nextPendingConnection()) {
            ++m_proxy.m_connections;
            ++m_proxy.m_open;
            new Pipe(client, m_proxy, *this);
        }
    });
    return m_server->serverPort();
}

LatencyProxy::Pipe::Pipe(QTcpSocket *client, LatencyProxy &proxy, Forwarder &forwarder)
    : QObject(&forwarder), m_proxy(proxy), m_forwarder(forwarder), m_client(client),
      m_server(new QTcpSocket(this))
{
    m_client->setParent(this);
    setUp(m_up, m_client, m_server, &m_proxy.m_fromClients);
    setUp(m_down, m_server, m_client, &m_proxy.m_fromServer);
    connect(m_server, &QTcpSocket::connected, this, [this] {
        m_targetConnected = true;
        release(m_up);
    });
    connect(m_server, &QTcpSocket::errorOccurred, this, [this] {
        if (m_targetConnected)
            return; // a close after connecting arrives as disconnected()
        // The target refused: so does the proxy, the way a refused connect looks after accept.
        m_client->disconnectFromHost();
        finishIfDone();
    });
    m_server->connectToHost(m_proxy.m_targetHost, m_proxy.m_targetPort);
    take(m_up); // bytes that came with the connection
}

LatencyProxy::Pipe::~Pipe()
{
    --m_proxy.m_open;
}

void LatencyProxy::Pipe::setUp(Direction &direction, QTcpSocket *from, QTcpSocket *to,
                               std::atomic<qint64> *counter)
{
    direction.from = from;
    direction.to = to;
    direction.counter = counter;
    direction.timer = new QTimer(this);
    direction.timer->setSingleShot(true);
    direction.timer->setTimerType(Qt::PreciseTimer);
    connect(direction.timer, &QTimer::timeout, this, [this, &direction] { release(direction); });
    connect(from, &QTcpSocket::readyRead, this, [this, &direction] { take(direction); });
    connect(from, &QTcpSocket::disconnected, this, [this, &direction] { closed(direction); });
}

void LatencyProxy::Pipe::take(Direction &direction)
{
    const QByteArray bytes = direction.from->readAll();
    if (bytes.isEmpty())
        return;
    *direction.counter += bytes.size();
    const int roundTrip = m_proxy.m_roundTripMs;
    // The two halves add up to the round trip exactly, also for an odd number.
    const int delay = &direction == &m_up ? roundTrip / 2 : roundTrip - roundTrip / 2;
    // Never before the data ahead of it, also after the round trip was shortened.
    direction.lastReleaseMs = std::max(m_forwarder.nowMs() + delay, direction.lastReleaseMs);
    direction.held.emplace_back(direction.lastReleaseMs, bytes);
    if (!direction.timer->isActive())
        release(direction);
}

void LatencyProxy::Pipe::release(Direction &direction)
{
    // Until the target answers the connect, what the client sent waits in order.
    if (&direction == &m_up && !targetReady())
        return;
    const qint64 now = m_forwarder.nowMs();
    while (!direction.held.empty() && direction.held.front().first <= now) {
        if (direction.to->state() == QAbstractSocket::ConnectedState)
            direction.to->write(direction.held.front().second);
        direction.held.pop_front();
    }
    if (!direction.held.empty()) {
        direction.timer->start(int(direction.held.front().first - now));
        return;
    }
    if (direction.fromClosed && direction.to->state() == QAbstractSocket::ConnectedState)
        direction.to->disconnectFromHost(); // after what it was still owed; flushes first
    finishIfDone();
}

void LatencyProxy::Pipe::closed(Direction &direction)
{
    take(direction);
    direction.fromClosed = true;
    // Nothing more can reach the side that left.
    Direction &toward = &direction == &m_up ? m_down : m_up;
    toward.held.clear();
    toward.timer->stop();
    release(direction);
    finishIfDone();
}

void LatencyProxy::Pipe::finishIfDone()
{
    const auto gone = [](QTcpSocket *socket) { return socket->state() == QAbstractSocket::UnconnectedState; };
    if (m_finished || !gone(m_client) || !gone(m_server))
        return;
    m_finished = true;
    deleteLater();
}

LatencyProxy::LatencyProxy(QString targetHost, quint16 targetPort, int roundTripMs)
    : m_targetHost(std::move(targetHost)), m_targetPort(targetPort),
      m_roundTripMs(roundTripMs < 0 ? 0 : roundTripMs), m_thread(new QThread),
      m_forwarder(new Forwarder(*this))
{
    m_thread->setObjectName(QStringLiteral("latency-proxy"));
    m_forwarder->moveToThread(m_thread);
    QObject::connect(m_thread, &QThread::finished, m_forwarder, &QObject::deleteLater);
    m_thread->start();
}

LatencyProxy::LatencyProxy(const QUrl &target, int roundTripMs)
    : LatencyProxy(target.host(), quint16(target.port(80)), roundTripMs)
{}

LatencyProxy::~LatencyProxy()
{
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

bool LatencyProxy::listen(QString *error)
{
    quint16 port = 0;
    QMetaObject::invokeMethod(
        m_forwarder, [&] { port = m_forwarder->listen(error); }, Qt::BlockingQueuedConnection);
    m_port = port;
    return m_port != 0;
}

QUrl LatencyProxy::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port));
}
