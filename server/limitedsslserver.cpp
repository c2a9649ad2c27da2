#include "limitedsslserver.h"

LimitedSslServer::LimitedSslServer(qint64 maxRequestBytes, int idleTimeoutMs, const QSslConfiguration &tls,
                                   QObject *parent)
    : QSslServer(parent), m_guard(maxRequestBytes, idleTimeoutMs)
{
    setSslConfiguration(tls);
    setHandshakeTimeout(idleTimeoutMs);
    connect(this, &QSslServer::startedEncryptionHandshake, this,
            [this](QSslSocket *socket) { m_guard.watch(socket); });
}
