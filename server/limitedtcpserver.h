#pragma once

#include "server/connectiongate.h"

#include <QTcpServer>

// serve's plain HTTP listener: every accepted socket goes through a ConnectionGate, and Qt's
// HTTP server is given the gated socket, never the client's.
class LimitedTcpServer final : public QTcpServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LimitedTcpServer)

public:
    LimitedTcpServer(const ConnectionLimits &limits, HttpConnection::HeadCheck check,
                     QObject *parent = nullptr);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    ConnectionGate *m_gate;
};
