#include "limitedtcpserver.h"

#include <QTcpSocket>
#include <QTimer>

namespace {

const char *const kReceived = "capdeskReceivedBytes";

QTimer *idleTimerOf(QTcpSocket *socket)
{
    return socket->findChild<QTimer *>(QStringLiteral("idleTimer"), Qt::FindDirectChildrenOnly);
}

} // namespace

LimitedTcpServer::LimitedTcpServer(qint64 maxRequestBytes, int idleTimeoutMs, QObject *parent)
    : QTcpServer(parent), m_maxRequestBytes(maxRequestBytes), m_idleTimeoutMs(idleTimeoutMs)
{}

void LimitedTcpServer::requestReceived(QTcpSocket *socket)
{
    socket->setProperty(kReceived, qint64(0));
    if (QTimer *idle = idleTimerOf(socket))
        idle->stop();
}

void LimitedTcpServer::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    auto *idle = new QTimer(socket);
    idle->setObjectName(QStringLiteral("idleTimer"));
    idle->setSingleShot(true);
    idle->setInterval(m_idleTimeoutMs);
    connect(idle, &QTimer::timeout, socket, &QTcpSocket::abort);
    connect(socket, &QTcpSocket::bytesWritten, idle, [socket, idle] {
        if (socket->bytesToWrite() == 0)
            idle->start();
    });
    connect(socket, &QTcpSocket::readyRead, this, [this, socket, idle] {
        idle->start();
        countBytes(socket);
    });
    idle->start();
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
