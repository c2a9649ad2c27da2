#include "httpclient.h"

#include "httprequestbuilder.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QThread>
#include <QTimer>

namespace {

// How often a running request looks at its cancellation flag, which is a plain atomic
// set from any thread.
constexpr int cancelPollMs = 50;

// One request in flight: collects the body under the limit and finishes exactly once.
class Exchange final : public QObject
{
public:
    Exchange(QNetworkReply *reply, int timeoutMs, std::shared_ptr<std::atomic_bool> cancelled,
             std::function<void(HttpResponse)> done)
        : QObject(reply), m_reply(reply), m_cancelled(std::move(cancelled)), m_done(std::move(done))
    {
        connect(reply, &QNetworkReply::readyRead, this, &Exchange::collect);
        connect(reply, &QNetworkReply::finished, this, &Exchange::finish);
        auto *deadline = new QTimer(this);
        deadline->setSingleShot(true);
        connect(deadline, &QTimer::timeout, this,
                [this, timeoutMs] { abortWith(QStringLiteral("timeout after %1 ms").arg(timeoutMs)); });
        deadline->start(timeoutMs);
        auto *poll = new QTimer(this);
        connect(poll, &QTimer::timeout, this, [this] {
            if (m_cancelled && m_cancelled->load())
                abortWith(QStringLiteral("cancelled"));
        });
        poll->start(cancelPollMs);
    }

private:
    void collect()
    {
        // After an abort the reply is closed and has nothing more to give.
        if (m_response.truncated || !m_reply->isOpen())
            return;
        m_response.body += m_reply->readAll();
        if (m_response.body.size() > HttpClient::bodyLimit) {
            m_response.body.truncate(HttpClient::bodyLimit);
            m_response.truncated = true;
            m_reply->abort();
        }
    }

    void abortWith(const QString &reason)
    {
        m_abortReason = reason;
        m_reply->abort();
    }

    void finish()
    {
        if (!m_done)
            return;
        collect();
        const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (!m_abortReason.isEmpty()) {
            m_response = HttpResponse{};
            m_response.transportError = m_abortReason;
        } else if (status.isValid()) {
            m_response.status = status.toInt();
        } else {
            m_response.body.clear();
            m_response.transportError = m_reply->errorString();
        }
        auto done = std::move(m_done);
        m_done = nullptr;
        m_reply->deleteLater();
        done(m_response);
    }

    QNetworkReply *m_reply;
    std::shared_ptr<std::atomic_bool> m_cancelled;
    std::function<void(HttpResponse)> m_done;
    HttpResponse m_response;
    QString m_abortReason;
};

} // namespace

HttpClient::HttpClient(QObject *parent) : QObject(parent), m_network(new QNetworkAccessManager(this))
{
    m_network->setRedirectPolicy(QNetworkRequest::SameOriginRedirectPolicy);
}

HttpClient::~HttpClient() = default;

void HttpClient::send(const HttpCallPlan &plan, std::shared_ptr<std::atomic_bool> cancelled,
                      std::function<void(HttpResponse)> done)
{
    Q_ASSERT(plan.ok());
    Q_ASSERT(thread() == QThread::currentThread());
    QNetworkRequest request(plan.url);
    for (const auto &header : plan.headers)
        request.setRawHeader(header.first, header.second);

    QNetworkReply *reply = nullptr;
    const QByteArray verb = plan.method.toLatin1();
    if (plan.method == QLatin1String("HEAD"))
        reply = m_network->head(request);
    else if (plan.hasBody)
        reply = m_network->sendCustomRequest(request, verb, plan.body);
    else
        reply = m_network->sendCustomRequest(request, verb);
    new Exchange(reply, m_timeoutMs, std::move(cancelled), std::move(done));
}
