#include "server/limitedsslserver.h"

#include "server/gatedsocket.h"

#include <QSslSocket>

LimitedSslServer::LimitedSslServer(const ConnectionLimits &limits, HttpConnection::HeadCheck check,
                                   const QSslConfiguration &tls, QObject *parent)
    : QSslServer(parent), m_gate(new ConnectionGate(limits, std::move(check), this))
{
    setSslConfiguration(tls);
    setHandshakeTimeout(limits.idleTimeoutMs);
    // QSslServer counts handshakes in progress as pending connections and stops accepting
    // at this many; the gate's cap must be what holds, so that one more is refused at once.
    setMaxPendingConnections(limits.maxConnections + 1);
}

void LimitedSslServer::incomingConnection(qintptr descriptor)
{
    QSslServer::incomingConnection(descriptor);
    // QSslServer makes the socket its child and starts waiting for the ClientHello; it is
    // counted from here, so handshakes that never finish hold no more than the caps allow.
    for (QSslSocket *socket : findChildren<QSslSocket *>(Qt::FindDirectChildrenOnly)) {
        if (socket->socketDescriptor() == descriptor) {
            m_gate->enter(socket, ConnectionGate::Refusal::Close);
            return;
        }
    }
}

QTcpSocket *LimitedSslServer::nextPendingConnection()
{
    if (QTcpSocket *encrypted = QSslServer::nextPendingConnection())
        return m_gate->admit(encrypted);
    return nullptr;
}
