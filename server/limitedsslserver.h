#pragma once

#include "connectionguard.h"

#include <QSslServer>

// serve's HTTPS listener (--tls-cert/--tls-key): QSslServer's handshake, then the same
// ConnectionGuard as the plain listener on the decrypted stream. A socket is watched from
// the moment its handshake starts, so the guard is connected before the HTTP server,
// which only sees the socket once it is encrypted; a handshake that stalls is ended
// after the idle timeout too.
class LimitedSslServer final : public QSslServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LimitedSslServer)

public:
    LimitedSslServer(qint64 maxRequestBytes, int idleTimeoutMs, const QSslConfiguration &tls,
                     QObject *parent = nullptr);

private:
    ConnectionGuard m_guard;
};
