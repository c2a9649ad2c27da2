#pragma once

#include "connectionlimits.h"
#include "httpconnection.h"

#include <QHash>
#include <QObject>

class GatedSocket;
class QTcpSocket;

// Where a listener's accepted sockets enter: within the connection caps each becomes an
// HttpConnection and Qt's server is given its GatedSocket; one over a cap is answered 503
// and closed without reaching Qt.
class ConnectionGate final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionGate)

public:
    ConnectionGate(const ConnectionLimits &limits, HttpConnection::HeadCheck check, QObject *parent);

    // The socket to hand Qt for `client`, or null when `client` was refused.
    GatedSocket *admit(QTcpSocket *client);
    int openConnections() const { return m_open; }

private:
    ConnectionLimits m_limits;
    HttpConnection::HeadCheck m_check;
    int m_open = 0;
    QHash<QString, int> m_perAddress;
};
