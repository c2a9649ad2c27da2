#include "remote/serverconnection.h"

#include "remote/networkworker.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <future>

namespace {

// A key no row can have (keys are upper case), so the check's PATCH cannot change anything.
const QString kCheckPath = QStringLiteral("/api/directory/capdesk-connection-check");

} // namespace

ServerConnection::ServerConnection(ServerEndpoint endpoint, QObject *parent)
    : QObject(parent), m_endpoint(std::move(endpoint)), m_thread(new QThread),
      m_worker(new NetworkWorker(m_endpoint))
{
    qRegisterMetaType<ServerResponse>();
    m_thread->setObjectName(QStringLiteral("capdesk-network"));
    m_worker->moveToThread(m_thread);
    connect(m_worker, &NetworkWorker::finished, this, &ServerConnection::requestFinished);
    // The manager and its replies must die on the thread that made them.
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

ServerConnection::~ServerConnection()
{
    // Callers still waiting in send() get "the connection was closed" rather than hang.
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->closeAll(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

QString ServerConnection::location() const
{
    return m_endpoint.baseUrl.toString(QUrl::RemoveUserInfo | QUrl::StripTrailingSlash);
}

void ServerConnection::setOwnerKey(const QString &key)
{
    m_endpoint.ownerKey = key;
    // Queued like every request, so each one sent afterwards finds the new key.
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, key] { worker->setOwnerKey(key); }, Qt::QueuedConnection);
}

ServerResponse ServerConnection::send(const QByteArray &method, const QString &pathAndQuery,
                                      const QByteArray &body,
                                      const QList<std::pair<QByteArray, QByteArray>> &extraHeaders) const
{
    ServerRequest request;
    request.method = method;
    request.pathAndQuery = pathAndQuery;
    request.body = body;
    request.headers = extraHeaders;
    return send(request);
}

ServerResponse ServerConnection::send(const ServerRequest &request) const
{
    if (QThread::currentThread() == m_thread) {
        ServerResponse refused;
        refused.failure =
            QStringLiteral("send() was called on the network thread, which would wait for itself");
        return refused;
    }
    auto promise = std::make_shared<std::promise<ServerResponse>>();
    std::future<ServerResponse> answer = promise->get_future();
    sendAsync(request, [promise](const ServerResponse &response) { promise->set_value(response); });
    return answer.get();
}

void ServerConnection::sendAsync(const ServerRequest &request,
                                 std::function<void(const ServerResponse &)> done) const
{
    auto *self = const_cast<ServerConnection *>(this);
    // Told as the count is when the notice arrives: notices from two threads may cross.
    auto notify = [self] {
        QMetaObject::invokeMethod(
            self, [self] { emit self->inFlightChanged(self->inFlight()); }, Qt::QueuedConnection);
    };
    ++m_inFlight;
    notify();
    // Counted down on the network thread, which this object outlives (it waits for it).
    auto counted = [self, notify, done = std::move(done)](const ServerResponse &response) {
        --self->m_inFlight;
        notify();
        done(response);
    };
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, request, counted = std::move(counted)]() mutable {
            worker->start(request, std::move(counted));
        },
        Qt::QueuedConnection);
}

ServerResponse ServerConnection::ping() const
{
    ServerRequest request;
    request.pathAndQuery = QStringLiteral("/api/dispatch?confirm=inv_0000000000");
    request.credentials = ServerRequest::Credentials::None;
    return send(request);
}

ConnectionCheck ServerConnection::check() const
{
    ConnectionCheck result;
    ServerRequest probe;
    probe.method = QByteArrayLiteral("PATCH");
    probe.pathAndQuery = kCheckPath;
    probe.body = QByteArrayLiteral("{}");
    const ServerResponse answer = send(probe);
    result.latencyMs = answer.elapsedMs;
    if (!answer.reached()) {
        result.message = QStringLiteral("server %1 did not answer: %2").arg(location(), answer.failure);
        return result;
    }
    if (answer.status == 401) {
        result.keyRefused = true;
        result.message = m_endpoint.ownerKey.isEmpty()
                             ? QStringLiteral("the server wants an owner key; none is set")
                             : QStringLiteral("the server refused the owner key");
        return result;
    }
    if (answer.status != 400 && answer.status != 404) {
        result.message =
            QStringLiteral("%1 does not answer like a capability directory (HTTP %2 to a test call)")
                .arg(location())
                .arg(answer.status);
        return result;
    }
    const ServerResponse rows =
        send(QByteArrayLiteral("GET"), QStringLiteral("/api/directory?limit=1&fields=summary"));
    const QJsonObject listed = QJsonDocument::fromJson(rows.body).object();
    if (rows.status == 200 && listed.contains(QStringLiteral("total")))
        result.rows = listed.value(QStringLiteral("total")).toInt();
    else if (rows.status == 200)
        result.rows = int(listed.value(QStringLiteral("rows")).toArray().size());
    result.ok = true;
    result.message = result.rows >= 0
                         ? QStringLiteral("connected: owner key accepted, %1 rows, %2 ms")
                               .arg(result.rows)
                               .arg(result.latencyMs)
                         : QStringLiteral("connected: owner key accepted, %1 ms").arg(result.latencyMs);
    return result;
}
