#include "server/limitedtcpserver.h"

#include "server/gatedsocket.h"

#include <QTcpSocket>

LimitedTcpServer::LimitedTcpServer(const ConnectionLimits &limits, HttpConnection::HeadCheck check,
                                   QObject *parent)
    : QTcpServer(parent), m_gate(new ConnectionGate(limits, std::move(check), this))
{}

void LimitedTcpServer::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    if (m_gate->enter(socket, ConnectionGate::Refusal::Answer503))
        addPendingConnection(m_gate->admit(socket));
}
