#pragma once

#include "connectionguard.h"

#include <QTcpServer>

// serve's plain HTTP listener: every connection is watched by a ConnectionGuard (request
// size and idle time) before the HTTP server sees it.
class LimitedTcpServer final : public QTcpServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LimitedTcpServer)

public:
    LimitedTcpServer(qint64 maxRequestBytes, int idleTimeoutMs, QObject *parent = nullptr);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    ConnectionGuard m_guard;
};
