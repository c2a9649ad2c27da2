#include "networkworker.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

namespace {

QString failureOf(QNetworkReply::NetworkError error, const QString &errorString)
{
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
        return QStringLiteral("connection refused");
    case QNetworkReply::RemoteHostClosedError:
        return QStringLiteral("the server closed the connection without answering");
    case QNetworkReply::HostNotFoundError:
        return QStringLiteral("host not found");
    case QNetworkReply::SslHandshakeFailedError:
        return QStringLiteral("TLS handshake failed: ") + errorString;
    default:
        break;
    }
    return errorString;
}

// The base URL's path (a server under a prefix) joined with the request's path and query.
QUrl urlOf(const QUrl &base, const QString &pathAndQuery)
{
    QString prefix = base.path(QUrl::FullyEncoded);
    while (prefix.endsWith(u'/'))
        prefix.chop(1);
    const qsizetype question = pathAndQuery.indexOf(u'?');
    QUrl url = base;
    url.setPath(prefix + pathAndQuery.left(question), QUrl::TolerantMode);
    url.setQuery(question < 0 ? QString() : pathAndQuery.mid(question + 1), QUrl::TolerantMode);
    return url;
}

} // namespace

NetworkWorker::NetworkWorker(ServerEndpoint endpoint) : m_endpoint(std::move(endpoint))
{
    m_clock.start();
}

NetworkWorker::~NetworkWorker()
{
    closeAll();
}

QNetworkAccessManager &NetworkWorker::manager()
{
    // Created on first use, so on the network thread, which then owns it.
    if (!m_manager) {
        m_manager = new QNetworkAccessManager(this);
        m_manager->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    }
    return *m_manager;
}

void NetworkWorker::start(const ServerRequest &request, Done done)
{
    QNetworkRequest network(urlOf(m_endpoint.baseUrl, request.pathAndQuery));
    if (!request.body.isEmpty() || request.method == "POST" || request.method == "PUT"
        || request.method == "PATCH")
        network.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    network.setRawHeader(QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json"));
    if (request.credentials == ServerRequest::Credentials::OwnerKey && !m_endpoint.ownerKey.isEmpty())
        network.setRawHeader(QByteArrayLiteral("x-terminal-key"), m_endpoint.ownerKey.toUtf8());
    for (const auto &[name, value] : request.headers)
        network.setRawHeader(name, value);
    QNetworkReply *reply = manager().sendCustomRequest(network, request.method, request.body);

    Running running;
    running.done = std::move(done);
    running.startedMs = m_clock.elapsed();
    running.request = request;
    running.timer = new QTimer(reply);
    running.timer->setSingleShot(true);
    running.timer->setTimerType(Qt::PreciseTimer); // "timed out after N ms" must not be early
    connect(running.timer, &QTimer::timeout, this, [this, reply] {
        auto found = m_running.find(reply);
        if (found == m_running.end())
            return;
        found->timedOut = true;
        reply->abort(); // finished() follows and answers it
    });
    running.timer->start(m_endpoint.timeoutMs);
    m_running.insert(reply, std::move(running));
    connect(reply, &QNetworkReply::finished, this, [this, reply] { complete(reply); });
}

void NetworkWorker::complete(QNetworkReply *reply)
{
    auto found = m_running.find(reply);
    if (found == m_running.end())
        return;
    Running running = std::move(*found);
    m_running.erase(found);
    reply->deleteLater();

    ServerResponse response;
    response.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (running.timedOut) {
        response.status = 0;
        response.failure = QStringLiteral("timed out after %1 ms").arg(m_endpoint.timeoutMs);
    } else if (response.reached()) {
        response.body = reply->readAll();
        for (const auto &pair : reply->rawHeaderPairs())
            response.headers.append(pair);
    } else {
        response.failure = failureOf(reply->error(), reply->errorString());
    }
    answer(std::move(running), std::move(response));
}

void NetworkWorker::answer(Running running, ServerResponse response)
{
    response.method = running.request.method;
    response.path = running.request.pathAndQuery;
    response.elapsedMs = m_clock.elapsed() - running.startedMs;
    running.done(response);
    emit finished(response);
}

void NetworkWorker::closeAll()
{
    const QHash<QNetworkReply *, Running> running = std::exchange(m_running, {});
    for (auto it = running.cbegin(); it != running.cend(); ++it) {
        it.key()->disconnect(this);
        it.key()->abort();
        it.key()->deleteLater();
        ServerResponse response;
        response.failure = QStringLiteral("the connection was closed");
        answer(it.value(), response);
    }
}
