#pragma once

#include "server/connectionlimits.h"
#include "server/httpconnection.h"

#include <QHash>
#include <QObject>

class GatedSocket;
class QTcpSocket;

// Where a listener's accepted sockets enter: each is counted against the connection caps
// from its accept to its destruction (a TLS handshake included), and one over a cap is
// refused without reaching Qt. Within the caps each becomes an HttpConnection and Qt's
// server is given its GatedSocket.
class ConnectionGate final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionGate)

public:
    enum class Refusal {
        Answer503, // a plain connection: answered 503 and closed
        Close, // a TLS connection before its handshake, which cannot carry an answer: closed
    };

    ConnectionGate(const ConnectionLimits &limits, HttpConnection::HeadCheck check, QObject *parent);

    // Counts `client` (just accepted) for as long as it exists; false when it is over a
    // cap, and then it is refused as `refusal` says: answered and deleted once closed, or
    // closed and deleted before this returns.
    bool enter(QTcpSocket *client, Refusal refusal);
    // The socket to hand Qt for `client`, which entered.
    GatedSocket *admit(QTcpSocket *client);
    int openConnections() const { return m_open; }

private:
    ConnectionLimits m_limits;
    HttpConnection::HeadCheck m_check;
    int m_open = 0;
    QHash<QString, int> m_perAddress;
};
