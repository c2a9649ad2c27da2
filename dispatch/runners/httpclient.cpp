#include "dispatch/runners/httpclient.h"

#include "dispatch/runners/httprequestbuilder.h"
#include "dispatch/runners/httptransport.h"

HttpClient::HttpClient(QObject *parent) : QObject(parent), m_transport(new HttpTransport(this)) {}

HttpClient::~HttpClient() = default;

void HttpClient::send(const HttpCallPlan &plan, std::shared_ptr<std::atomic_bool> cancelled,
                      std::function<void(HttpResponse)> done)
{
    Q_ASSERT(plan.ok());
    TransportRequest request;
    request.method = plan.method.toLatin1();
    request.url = plan.url;
    for (const auto &header : plan.headers)
        request.headers.append({header.first, header.second});
    request.body = plan.body;
    request.hasBody = plan.hasBody;
    request.timeoutMs = m_timeoutMs;
    request.maxBodyBytes = bodyLimit;
    request.overLimit = TransportRequest::OverLimit::Truncate;
    request.redirects = TransportRequest::Redirects::SameOrigin;
    request.caFile = m_caFile;
    request.cancelled = std::move(cancelled);
    m_transport->send(
        request, [timeoutMs = m_timeoutMs, done = std::move(done)](const TransportResponse &answer) {
            HttpResponse response;
            if (answer.ok()) {
                response.status = answer.status;
                response.body = answer.body;
                response.truncated = answer.truncated;
            } else {
                // A runner's output has always worded its deadline this way.
                response.transportError = answer.failure == TransportResponse::Failure::TimedOut
                                              ? QStringLiteral("timeout after %1 ms").arg(timeoutMs)
                                              : answer.error;
            }
            done(response);
        });
}
