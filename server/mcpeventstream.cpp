#include "server/mcpeventstream.h"

#include "server/httpconnection.h"

#include <QTcpSocket>

McpEventStream::McpEventStream(QTcpSocket *socket, qint64 maxUnsentBytes, int keepAliveMs, QObject *parent)
    : QObject(parent), m_socket(socket), m_connection(HttpConnection::of(socket)),
      m_maxUnsentBytes(maxUnsentBytes)
{
    m_keepAlive.setInterval(keepAliveMs);
    connect(&m_keepAlive, &QTimer::timeout, this, [this] { write(QByteArrayLiteral(": keep-alive\n\n")); });
    if (socket)
        connect(socket, &QTcpSocket::disconnected, this, [this] {
            if (m_ended)
                return;
            m_ended = true;
            m_keepAlive.stop();
            emit closed();
        });
}

bool McpEventStream::isOpen() const
{
    return !m_ended && m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

bool McpEventStream::open()
{
    if (!isOpen() || !m_connection)
        return false;
    m_connection->exemptFromIdleTimeout();
    m_connection->writeAnswer(QByteArrayLiteral("HTTP/1.1 200 OK\r\n"
                                                "Content-Type: text/event-stream\r\n"
                                                "Cache-Control: no-store\r\n"
                                                "X-Accel-Buffering: no\r\n"
                                                "X-Content-Type-Options: nosniff\r\n"
                                                "Transfer-Encoding: chunked\r\n"
                                                "\r\n"));
    m_keepAlive.start();
    return true;
}

void McpEventStream::send(const QByteArray &message)
{
    write(QByteArrayLiteral("event: message\ndata: ") + message + QByteArrayLiteral("\n\n"));
}

void McpEventStream::write(const QByteArray &payload)
{
    if (!isOpen() || !m_connection)
        return;
    if (m_connection->unsentBytes() > m_maxUnsentBytes) {
        // A reader this far behind would only fall further; it can listen again.
        close();
        return;
    }
    m_connection->writeAnswer(QByteArray::number(payload.size(), 16) + QByteArrayLiteral("\r\n") + payload
                              + QByteArrayLiteral("\r\n"));
}

void McpEventStream::close()
{
    if (!isOpen() || !m_connection)
        return;
    m_keepAlive.stop();
    m_ended = true;
    m_connection->writeAnswer(QByteArrayLiteral("0\r\n\r\n"));
    m_connection->closeAfterWriting();
    emit closed();
}
