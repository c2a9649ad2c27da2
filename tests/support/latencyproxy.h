#pragma once

#include <QString>
#include <QUrl>

#include <atomic>

class QThread;

// A TCP forwarder on 127.0.0.1 that puts a round trip between a client and a server, for
// tests and benchmarks of remote mode at real latencies. It delays data, not
// connections: every chunk from the client is held for half the round trip from the
// moment it arrives before it is sent on, and every chunk from the server likewise, in
// order. So each request/response exchange costs at least one round trip, also the
// many exchanges keep-alive carries over one connection. The connection itself is
// accepted at once (no handshake round trip). Closing either side closes the other once
// the data already on its way there has arrived.
// It forwards on a thread of its own, so a test may block its own thread (a blocking
// ServerConnection::send) while requests pass through. Every method is safe to call from
// any thread.
class LatencyProxy final
{
public:
    LatencyProxy(QString targetHost, quint16 targetPort, int roundTripMs = 0);
    explicit LatencyProxy(const QUrl &target, int roundTripMs = 0);
    ~LatencyProxy();
    Q_DISABLE_COPY_MOVE(LatencyProxy)

    // Listens on 127.0.0.1 at a port the system picks.
    bool listen(QString *error = nullptr);
    quint16 port() const { return m_port; }
    // http://127.0.0.1:PORT, the target's URL as a client of the proxy writes it.
    QUrl url() const;

    // Applies to data arriving from now on; data already held keeps its time.
    void setRoundTripMs(int ms) { m_roundTripMs = ms < 0 ? 0 : ms; }
    int roundTripMs() const { return m_roundTripMs; }

    int connectionsAccepted() const { return m_connections; }
    int connectionsOpen() const { return m_open; }
    qint64 bytesFromClients() const { return m_fromClients; }
    qint64 bytesFromServer() const { return m_fromServer; }

private:
    class Forwarder;
    class Pipe;

    QString m_targetHost;
    quint16 m_targetPort;
    quint16 m_port = 0;
    std::atomic<int> m_roundTripMs;
    std::atomic<int> m_connections{0};
    std::atomic<int> m_open{0};
    std::atomic<qint64> m_fromClients{0};
    std::atomic<qint64> m_fromServer{0};
    QThread *m_thread;
    Forwarder *m_forwarder; // lives on m_thread
};
