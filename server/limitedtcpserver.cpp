#include "limitedtcpserver.h"

#include <QTcpSocket>

LimitedTcpServer::LimitedTcpServer(qint64 maxRequestBytes, int idleTimeoutMs, QObject *parent)
    : QTcpServer(parent), m_guard(maxRequestBytes, idleTimeoutMs)
{}

void LimitedTcpServer::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    m_guard.watch(socket);
    addPendingConnection(socket);
}
