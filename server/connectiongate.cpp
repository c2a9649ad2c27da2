#include "server/connectiongate.h"

#include "server/accesslog.h"
#include "server/gatedsocket.h"

#include <QTcpSocket>

ConnectionGate::ConnectionGate(const ConnectionLimits &limits, HttpConnection::HeadCheck check,
                               QObject *parent)
    : QObject(parent), m_limits(limits), m_check(std::move(check))
{}

bool ConnectionGate::enter(QTcpSocket *client, Refusal refusal)
{
    const QString address = client->peerAddress().toString();
    const bool full = m_open >= m_limits.maxConnections
                      || (m_limits.maxConnectionsPerAddress > 0
                          && m_perAddress.value(address) >= m_limits.maxConnectionsPerAddress);
    if (full) {
        AccessLog::write({}, {}, 503, 0, client->peerAddress());
        if (refusal == Refusal::Close) {
            // At once, not later: until it is gone QSslServer counts it as pending.
            client->abort();
            delete client;
            return false;
        }
        const QByteArray body =
            QByteArrayLiteral("{\"error\":\"too many open connections; try again shortly\"}");
        client->write(
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
            "Connection: close\r\nContent-Length: "
            + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        client->setParent(this);
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
        client->disconnectFromHost();
        return false;
    }
    ++m_open;
    ++m_perAddress[address];
    connect(client, &QObject::destroyed, this, [this, address] {
        --m_open;
        if (--m_perAddress[address] <= 0)
            m_perAddress.remove(address);
    });
    return true;
}

GatedSocket *ConnectionGate::admit(QTcpSocket *client)
{
    return (new HttpConnection(client, m_limits, m_check, this))->socket();
}
