#pragma once

#include <QPointer>
#include <QTcpSocket>

class HttpConnection;

// The socket Qt's HTTP server is given instead of the client's: it reads only the bytes
// its HttpConnection released (one checked, canonical request at a time) and writes
// through to the client's socket. It has no socket engine of its own.
class GatedSocket final : public QTcpSocket
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GatedSocket)

public:
    GatedSocket(HttpConnection *connection, const QTcpSocket &client);

    HttpConnection *connection() const { return m_connection; }
    // Bytes of the request Qt may parse now.
    void release(const QByteArray &bytes);
    // The client's socket is gone.
    void end();

    qint64 bytesAvailable() const override;
    qint64 bytesToWrite() const override;
    void close() override;
    void disconnectFromHost() override;

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *data, qint64 size) override;

private:
    QPointer<HttpConnection> m_connection;
    QByteArray m_released;
};
