#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QTimer>

class HttpConnection;
class QTcpSocket;

// One Server-Sent Events answer of /mcp, written on the raw socket: Qt 6.4's HTTP server
// has no streaming API. The head goes out first (chunked, no caching, no proxy buffering),
// then each message as one `data:` event in a chunk, and a `:` comment inside the idle
// timeout so neither side takes the quiet for a dead peer. A client that stops reading
// is cut off once `maxUnsentBytes` wait for it, rather than queued without end.
class McpEventStream final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpEventStream)

public:
    McpEventStream(QTcpSocket *socket, qint64 maxUnsentBytes, int keepAliveMs, QObject *parent = nullptr);

    // Writes the head; false when the connection is already gone.
    bool open();
    void send(const QByteArray &message);
    // Ends the stream (the last chunk) and the connection once it is written.
    void close();

signals:
    void closed();

private:
    bool isOpen() const;
    void write(const QByteArray &payload);

    QPointer<QTcpSocket> m_socket;
    QPointer<HttpConnection> m_connection;
    qint64 m_maxUnsentBytes;
    QTimer m_keepAlive;
    bool m_ended = false;
};
