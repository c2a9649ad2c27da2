#pragma once

#include <QtGlobal>

class QTcpSocket;

// The limits every connection to `capdeskctl serve` lives under, plain or TLS alike.
// QtHttpServer 6.4 buffers a whole request body before any handler sees it, so a size check
// in the handler alone would still let one client fill the memory. The guard counts the
// bytes a connection sends between answered requests and cuts it off with 413 once they
// pass the limit, before the buffering grows further; its readyRead slot must be connected
// before the HTTP server's, so that it runs first. It also closes a connection that stays
// quiet for `idleTimeoutMs` while no answer is owed to it: between requests, or in the
// middle of one that never completes. Over TLS it counts the decrypted bytes.
class ConnectionGuard final
{
public:
    ConnectionGuard(qint64 maxRequestBytes, int idleTimeoutMs);

    // Watches `socket` from now on, before the HTTP server connects to it.
    void watch(QTcpSocket *socket) const;
    // Called when a request on `socket` has been received whole: its bytes no longer count,
    // and the connection is not idle until its answer has been written.
    static void requestReceived(QTcpSocket *socket);

private:
    void countBytes(QTcpSocket *socket) const;

    qint64 m_maxRequestBytes;
    int m_idleTimeoutMs;
};
