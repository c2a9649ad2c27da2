#include "server/gatedsocket.h"

#include "server/httpconnection.h"

#include <cstring>

GatedSocket::GatedSocket(HttpConnection *connection, const QTcpSocket &client) : m_connection(connection)
{
    setPeerAddress(client.peerAddress());
    setPeerPort(client.peerPort());
    setLocalAddress(client.localAddress());
    setLocalPort(client.localPort());
    setSocketState(QAbstractSocket::ConnectedState);
    setOpenMode(QIODevice::ReadWrite | QIODevice::Unbuffered);
}

void GatedSocket::release(const QByteArray &bytes)
{
    m_released += bytes;
    emit readyRead();
}

void GatedSocket::end()
{
    if (state() == QAbstractSocket::UnconnectedState)
        return;
    setSocketState(QAbstractSocket::UnconnectedState);
    emit disconnected();
}

qint64 GatedSocket::bytesAvailable() const
{
    return QTcpSocket::bytesAvailable() + m_released.size();
}

qint64 GatedSocket::bytesToWrite() const
{
    return m_connection ? m_connection->unsentBytes() : 0;
}

void GatedSocket::close()
{
    disconnectFromHost();
}

void GatedSocket::disconnectFromHost()
{
    if (m_connection)
        m_connection->closeAfterWriting();
}

qint64 GatedSocket::readData(char *data, qint64 maxSize)
{
    const qint64 size = std::min<qint64>(maxSize, m_released.size());
    std::memcpy(data, m_released.constData(), std::size_t(size));
    m_released.remove(0, size);
    return size;
}

qint64 GatedSocket::writeData(const char *data, qint64 size)
{
    if (!m_connection)
        return -1;
    m_connection->writeAnswer(QByteArrayView(data, size));
    return size;
}
