#include "connectionguard.h"

#include <QTcpSocket>
#include <QTimer>

namespace {

const char *const kReceived = "capdeskReceivedBytes";

QTimer *idleTimerOf(QTcpSocket *socket)
{
    return socket->findChild<QTimer *>(QStringLiteral("idleTimer"), Qt::FindDirectChildrenOnly);
}

} // namespace

ConnectionGuard::ConnectionGuard(qint64 maxRequestBytes, int idleTimeoutMs)
    : m_maxRequestBytes(maxRequestBytes), m_idleTimeoutMs(idleTimeoutMs)
{}

void ConnectionGuard::requestReceived(QTcpSocket *socket)
{
    socket->setProperty(kReceived, qint64(0));
    if (QTimer *idle = idleTimerOf(socket))
        idle->stop();
}

void ConnectionGuard::watch(QTcpSocket *socket) const
{
    auto *idle = new QTimer(socket);
    idle->setObjectName(QStringLiteral("idleTimer"));
    idle->setSingleShot(true);
    idle->setInterval(m_idleTimeoutMs);
    QObject::connect(idle, &QTimer::timeout, socket, &QTcpSocket::abort);
    QObject::connect(socket, &QTcpSocket::bytesWritten, idle, [socket, idle] {
        if (socket->bytesToWrite() == 0)
            idle->start();
    });
    QObject::connect(socket, &QTcpSocket::readyRead, idle, [guard = *this, socket, idle] {
        idle->start();
        guard.countBytes(socket);
    });
    idle->start();
}

void ConnectionGuard::countBytes(QTcpSocket *socket) const
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
