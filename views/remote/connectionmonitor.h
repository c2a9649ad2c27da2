#pragma once

#include "remote/serverresponse.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <memory>

class ServerConnection;

// How the open server is doing, as far as this window can tell: every request's answer
// (ServerConnection::requestFinished) and a keyless ping every few seconds, run on a
// worker because a ping blocks its thread. No answer → Offline; a 401 → KeyRefused until
// a write is accepted; anything else → Online, with the last round trip's latency.
class ConnectionMonitor final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionMonitor)

public:
    enum class State { None, Online, Offline, KeyRefused };
    static constexpr int defaultPingIntervalMs = 15000;

    explicit ConnectionMonitor(QObject *parent = nullptr);
    ~ConnectionMonitor() override;

    // Null stops watching (a local file is open).
    void watch(std::shared_ptr<ServerConnection> connection, const QString &name);
    void setPingInterval(int ms);
    // A ping now (unless one is under way); its answer arrives through changed().
    void pingNow();
    // The key was refused by a check made before this monitor watched the connection.
    void noteKeyRefused();

    State state() const { return m_state; }
    QString name() const { return m_name; }
    QString location() const;
    qint64 latencyMs() const { return m_latencyMs; }
    // Requests to the server not answered yet (reads, saves, calls, pings).
    int requestsInFlight() const { return m_inFlight; }
    // Why the server is offline, in the connection's words ("connection refused").
    QString failure() const { return m_failure; }
    bool isPinging() const { return m_ping.isRunning(); }

signals:
    void changed();
    // The server answers again (after being offline) and nothing says the key is refused.
    void backOnline();

private:
    void take(const ServerResponse &response);
    void update();

    std::shared_ptr<ServerConnection> m_connection;
    // The connection a running ping uses, kept alive by the GUI thread until it ends, so
    // a connection is never destroyed on a worker.
    std::shared_ptr<ServerConnection> m_pinged;
    QString m_name;
    QTimer m_timer;
    QFutureWatcher<ServerResponse> m_ping;
    State m_state = State::None;
    bool m_reachable = true;
    bool m_keyRefused = false;
    qint64 m_latencyMs = -1;
    int m_inFlight = 0;
    QString m_failure;
};
