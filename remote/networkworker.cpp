#include "remote/networkworker.h"

#include "dispatch/core/productversion.h"
#include "dispatch/runners/httptransport.h"

namespace {

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

NetworkWorker::NetworkWorker(ServerEndpoint endpoint)
    : m_endpoint(std::move(endpoint)), m_transport(new HttpTransport(this))
{}

NetworkWorker::~NetworkWorker()
{
    closeAll();
}

TransportRequest NetworkWorker::transportRequestFor(const ServerRequest &request) const
{
    TransportRequest sent;
    sent.method = request.method;
    sent.url = urlOf(m_endpoint.baseUrl, request.pathAndQuery);
    sent.body = request.body;
    sent.hasBody = !request.body.isEmpty() || request.method == "POST" || request.method == "PUT"
                   || request.method == "PATCH";
    if (sent.hasBody)
        sent.headers.append({QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")});
    sent.headers.append({QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json")});
    sent.headers.append({QByteArrayLiteral("User-Agent"), ProductVersion::product()});
    if (request.credentials == ServerRequest::Credentials::OwnerKey && !m_endpoint.ownerKey.isEmpty())
        sent.headers.append({QByteArrayLiteral("x-terminal-key"), m_endpoint.ownerKey.toUtf8()});
    sent.headers.append(request.headers);
    sent.timeoutMs = m_endpoint.timeoutMs;
    sent.maxBodyBytes = m_endpoint.maxAnswerBytes;
    sent.overLimit = TransportRequest::OverLimit::Fail;
    // A redirect would carry the owner key to wherever it points.
    sent.redirects = TransportRequest::Redirects::None;
    sent.caFile = m_endpoint.caFile;
    return sent;
}

ServerResponse NetworkWorker::responseOf(const ServerRequest &request, const TransportResponse &answer)
{
    ServerResponse response;
    response.method = request.method;
    response.path = request.pathAndQuery;
    response.elapsedMs = answer.elapsedMs;
    if (answer.failure == TransportResponse::Failure::BodyTooLarge) {
        response.status = answer.status;
        response.bodyTooLarge = true;
        response.failure = answer.error;
    } else if (answer.ok()) {
        response.status = answer.status;
        response.body = answer.body;
        response.headers = answer.headers;
    } else {
        response.failure = answer.error;
    }
    return response;
}

void NetworkWorker::start(const ServerRequest &request, Done done)
{
    m_transport->send(transportRequestFor(request),
                      [this, request, done = std::move(done)](const TransportResponse &answer) {
                          const ServerResponse response = responseOf(request, answer);
                          done(response);
                          emit finished(response);
                      });
}

void NetworkWorker::closeAll()
{
    m_transport->closeAll(QStringLiteral("the connection was closed"));
}
