#include "limitedtcpserver.h"

#include <QTcpSocket>

namespace {

const char *const kReceived = "capdeskReceivedBytes";

} // namespace

LimitedTcpServer::LimitedTcpServer(qint64 maxRequestBytes, QObject *parent)
    : QTcpServer(parent), m_maxRequestBytes(maxRequestBytes)
{}

void LimitedTcpServer::requestReceived(QTcpSocket *socket)
{
    socket->setProperty(kReceived, qint64(0));
}

void LimitedTcpServer::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { countBytes(socket); });
    addPendingConnection(socket);
}

void LimitedTcpServer::countBytes(QTcpSocket *socket)
{
    const qint64 received = socket->property(kReceived).toLongLong() + socket->bytesAvailable();
    socket->setProperty(kReceived, received);
    if (received <= m_maxRequestBytes)
        return;
    const QByteArray body = QByteArrayLiteral("{\"error\":\"request over the server's size limit\"}");
    socket->write(QByteArrayLiteral("HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\n"
                                    "Connection: close\r\nContent-Length: ")
                  + QByteArray::number(body.size()) + QByteArrayLiteral("\r\n\r\n") + body);
    socket->readAll(); // nothing of it reaches the HTTP parser
    socket->disconnectFromHost();
}
