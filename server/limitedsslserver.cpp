#include "limitedsslserver.h"

#include "gatedsocket.h"

LimitedSslServer::LimitedSslServer(const ConnectionLimits &limits, HttpConnection::HeadCheck check,
                                   const QSslConfiguration &tls, QObject *parent)
    : QSslServer(parent), m_gate(new ConnectionGate(limits, std::move(check), this))
{
    setSslConfiguration(tls);
    setHandshakeTimeout(limits.idleTimeoutMs);
}

QTcpSocket *LimitedSslServer::nextPendingConnection()
{
    while (QTcpSocket *encrypted = QSslServer::nextPendingConnection()) {
        if (GatedSocket *gated = m_gate->admit(encrypted))
            return gated;
    }
    return nullptr;
}
