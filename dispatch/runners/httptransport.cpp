#include "dispatch/runners/httptransport.h"

#include "dispatch/runners/tlstrust.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslError>
#include <QThread>
#include <QTimer>

namespace {

using Failure = TransportResponse::Failure;

// How often a running request looks at its cancellation flag, which is a plain atomic
// set from any thread.
constexpr int cancelPollMs = 50;

QString sizeText(qint64 bytes)
{
    constexpr qint64 mebibyte = 1024 * 1024;
    if (bytes >= mebibyte && bytes % mebibyte == 0)
        return QStringLiteral("%1 MiB").arg(bytes / mebibyte);
    return QStringLiteral("%1 bytes").arg(bytes);
}

QString networkWords(QNetworkReply::NetworkError error, const QString &errorString)
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

} // namespace

// One request in flight: reads the body under the cap, and finishes exactly once.
class HttpTransport::Exchange final : public QObject
{
public:
    Exchange(HttpTransport &transport, QNetworkReply *reply, const TransportRequest &request, Done done)
        : QObject(&transport), m_transport(transport), m_reply(reply), m_maxBodyBytes(request.maxBodyBytes),
          m_overLimit(request.overLimit), m_cancelled(request.cancelled), m_done(std::move(done))
    {
        m_clock.start();
        connect(reply, &QNetworkReply::metaDataChanged, this, &Exchange::checkDeclaredLength);
        connect(reply, &QNetworkReply::readyRead, this, &Exchange::collect);
        connect(reply, &QNetworkReply::sslErrors, this,
                [this](const QList<QSslError> &errors) { m_sslErrors = errors; });
        connect(reply, &QNetworkReply::finished, this, &Exchange::finish);
        auto *deadline = new QTimer(this);
        deadline->setSingleShot(true);
        deadline->setTimerType(Qt::PreciseTimer); // "timed out after N ms" must not come early
        connect(deadline, &QTimer::timeout, this, [this, timeoutMs = request.timeoutMs] {
            abortWith(Failure::TimedOut, QStringLiteral("timed out after %1 ms").arg(timeoutMs));
        });
        deadline->start(request.timeoutMs);
        if (m_cancelled) {
            auto *poll = new QTimer(this);
            connect(poll, &QTimer::timeout, this, [this] {
                if (m_cancelled->load())
                    abortWith(Failure::Cancelled, QStringLiteral("cancelled"));
            });
            poll->start(cancelPollMs);
        }
    }

    void abortWith(Failure failure, const QString &reason)
    {
        if (!m_done || m_abortFailure != Failure::None)
            return;
        m_abortFailure = failure;
        m_abortReason = reason;
        m_reply->abort();
        finish(); // in case abort() did not emit finished() itself
    }

private:
    QString tooLarge() const
    {
        return QStringLiteral("the body is larger than %1").arg(sizeText(m_maxBodyBytes));
    }

    void checkDeclaredLength()
    {
        const QVariant declared = m_reply->header(QNetworkRequest::ContentLengthHeader);
        if (m_overLimit == TransportRequest::OverLimit::Fail && declared.isValid()
            && declared.toLongLong() > m_maxBodyBytes)
            abortWith(Failure::BodyTooLarge, tooLarge());
    }

    void collect()
    {
        // After an abort the reply is closed and has nothing more to give.
        if (m_truncated || !m_reply->isOpen())
            return;
        m_body += m_reply->read(m_maxBodyBytes + 1 - m_body.size());
        if (m_body.size() <= m_maxBodyBytes)
            return;
        if (m_overLimit == TransportRequest::OverLimit::Fail) {
            m_body.clear();
            abortWith(Failure::BodyTooLarge, tooLarge());
            return;
        }
        m_body.truncate(m_maxBodyBytes);
        m_truncated = true;
        m_reply->abort();
    }

    // Qt finishes a reply whose server closed the connection mid-body with its status and
    // the bytes so far, flagged only by RemoteHostClosedError; a body that ends at the
    // close because it declared no length finishes without an error.
    bool cutShort() const { return !m_truncated && m_reply->error() == QNetworkReply::RemoteHostClosedError; }

    QString cutShortWords() const
    {
        const QVariant declared = m_reply->header(QNetworkRequest::ContentLengthHeader);
        QString received = QStringLiteral("%1 bytes").arg(m_body.size());
        if (declared.isValid())
            received = QStringLiteral("%1 of %2 bytes").arg(m_body.size()).arg(declared.toLongLong());
        else if (m_reply->rawHeader("Transfer-Encoding").contains("chunked"))
            received += QStringLiteral(", before the last chunk");
        return QStringLiteral("the server closed the connection after ") + received;
    }

    TransportResponse response() const
    {
        TransportResponse response;
        response.elapsedMs = m_clock.elapsed();
        const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (m_abortFailure != Failure::None) {
            response.failure = m_abortFailure;
            response.error = m_abortReason;
            if (m_abortFailure == Failure::BodyTooLarge)
                response.status = status.toInt();
        } else if (!m_sslErrors.isEmpty()) {
            response.failure = Failure::Certificate;
            response.error = TlsTrust::describe(m_reply->url().host(), m_sslErrors);
        } else if (status.isValid() && cutShort()) {
            response.failure = Failure::Network;
            response.error = cutShortWords();
        } else if (status.isValid()) {
            response.status = status.toInt();
            response.body = m_body;
            response.truncated = m_truncated;
            response.headers = m_reply->rawHeaderPairs();
        } else {
            response.failure = Failure::Network;
            response.error = networkWords(m_reply->error(), m_reply->errorString());
        }
        return response;
    }

    void finish()
    {
        if (!m_done)
            return;
        collect();
        const TransportResponse answer = response();
        Done done = std::exchange(m_done, nullptr);
        m_transport.m_running.remove(this);
        m_reply->disconnect(this);
        m_reply->deleteLater();
        deleteLater();
        done(answer);
    }

    HttpTransport &m_transport;
    QNetworkReply *m_reply;
    qint64 m_maxBodyBytes;
    TransportRequest::OverLimit m_overLimit;
    std::shared_ptr<std::atomic_bool> m_cancelled;
    Done m_done;
    QElapsedTimer m_clock;
    QByteArray m_body;
    bool m_truncated = false;
    QList<QSslError> m_sslErrors;
    Failure m_abortFailure = Failure::None;
    QString m_abortReason;
};

HttpTransport::HttpTransport(QObject *parent) : QObject(parent) {}

HttpTransport::~HttpTransport() = default;

QNetworkAccessManager &HttpTransport::managerFor(const QString &caFile)
{
    // Made on first use, so on the thread that sends (an owner may be moved there first).
    QNetworkAccessManager *&manager = m_managers[caFile];
    if (!manager)
        manager = new QNetworkAccessManager(this);
    return *manager;
}

std::optional<QSslConfiguration> HttpTransport::tlsConfiguration(const QString &caFile, QString *error)
{
    if (caFile.isEmpty())
        return TlsTrust::systemConfiguration();
    if (const auto built = m_tls.constFind(caFile); built != m_tls.constEnd())
        return *built;
    std::optional<QSslConfiguration> configuration = TlsTrust::withCaFile(caFile, error);
    if (configuration)
        m_tls.insert(caFile, *configuration);
    return configuration;
}

void HttpTransport::send(const TransportRequest &request, Done done)
{
    Q_ASSERT(thread() == QThread::currentThread());
    QString tlsError;
    const std::optional<QSslConfiguration> tls = tlsConfiguration(request.caFile, &tlsError);
    if (!tls) {
        TransportResponse refused;
        refused.failure = Failure::CaFile;
        refused.error = tlsError;
        done(refused);
        return;
    }
    QNetworkRequest network(request.url);
    for (const auto &[name, value] : request.headers)
        network.setRawHeader(name, value);
    network.setSslConfiguration(*tls);
    network.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         request.redirects == TransportRequest::Redirects::None
                             ? QNetworkRequest::ManualRedirectPolicy
                             : QNetworkRequest::SameOriginRedirectPolicy);
    QNetworkAccessManager &manager = managerFor(request.caFile);
    QNetworkReply *reply = nullptr;
    if (request.method == "HEAD")
        reply = manager.head(network);
    else if (request.hasBody)
        reply = manager.sendCustomRequest(network, request.method, request.body);
    else
        reply = manager.sendCustomRequest(network, request.method);
    m_running.insert(new Exchange(*this, reply, request, std::move(done)));
}

void HttpTransport::closeAll(const QString &reason)
{
    const QSet<Exchange *> running = m_running;
    for (Exchange *exchange : running)
        exchange->abortWith(Failure::Closed, reason);
}
