#pragma once

#include <QTcpServer>

// QtHttpServer 6.4 buffers a whole request body before any handler sees it, so a size
// check in the handler alone would still let one client fill the memory. This listener
// counts the bytes each connection sends between answered requests and cuts a connection
// off with 413 once they pass the limit plus room for headers, before the buffering
// grows further. Its readyRead slot is connected before the HTTP server's, so it runs first.
// It also closes a connection that stays quiet for `idleTimeoutMs` while no answer is owed
// to it: between requests, or in the middle of one that never completes.
class LimitedTcpServer final : public QTcpServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LimitedTcpServer)

public:
    LimitedTcpServer(qint64 maxRequestBytes, int idleTimeoutMs, QObject *parent = nullptr);

    // Called when a request on `socket` has been received whole: its bytes no longer count,
    // and the connection is not idle until its answer has been written.
    static void requestReceived(QTcpSocket *socket);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    void countBytes(QTcpSocket *socket);

    qint64 m_maxRequestBytes;
    int m_idleTimeoutMs;
};
