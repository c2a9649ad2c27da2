#pragma once

#include "server/connectiongate.h"

#include <QSslServer>

// serve's HTTPS listener (--tls-cert/--tls-key): QSslServer's handshake (ended after the
// idle timeout if it stalls), then the same ConnectionGate as the plain listener on the
// decrypted stream: Qt's HTTP server takes connections through nextPendingConnection(),
// which hands it the gated socket. A connection counts against the caps from its accept,
// its handshake included; one over a cap is closed before any handshake.
class LimitedSslServer final : public QSslServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LimitedSslServer)

public:
    LimitedSslServer(const ConnectionLimits &limits, HttpConnection::HeadCheck check,
                     const QSslConfiguration &tls, QObject *parent = nullptr);

    QTcpSocket *nextPendingConnection() override;

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    ConnectionGate *m_gate;
};
