#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

class HttpTransport;
struct HttpCallPlan;

// The answer to one request, or why there is none.
struct HttpResponse
{
    int status = 0; // 0 when no HTTP response arrived
    QByteArray body; // at most HttpClient::bodyLimit bytes
    bool truncated = false; // the response body was longer and was cut at the limit
    QString transportError; // timeout, refused connection, TLS failure, cancellation, …

    bool ok() const { return transportError.isEmpty(); }
};

// Sends the http and agent runners' HttpCallPlans through one HttpTransport, with the
// policy of SPEC §3:
// - a deadline for the whole exchange (default 30 s);
// - TLS certificates always verified (the transport never ignores sslErrors), with an
//   optional CA file trusted beside the system roots;
// - redirects followed only within the same origin (scheme, host and port). Qt's default
//   policy follows cross-origin redirects carrying every original header, which would
//   hand an Authorization header to whatever host a server names; a cross-origin 3xx is
//   returned as the response instead;
// - a response body over bodyLimit cut there and flagged.
// Lives on one thread: send() must be called there, and `done` is called there, once.
class HttpClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpClient)

public:
    static constexpr qint64 bodyLimit = 8 * 1024 * 1024;
    static constexpr int defaultTimeoutMs = 30000;

    explicit HttpClient(QObject *parent = nullptr);
    ~HttpClient() override;

    void setTimeoutMs(int timeoutMs) { m_timeoutMs = timeoutMs; }
    int timeoutMs() const { return m_timeoutMs; }
    // A PEM file of CA certificates trusted beside the system roots; empty: the roots only.
    void setCaFile(const QString &caFile) { m_caFile = caFile; }
    const QString &caFile() const { return m_caFile; }

    // Sends `plan` (which must be ok()). Setting *cancelled aborts the request; `done`
    // then reports the transport error "cancelled".
    void send(const HttpCallPlan &plan, std::shared_ptr<std::atomic_bool> cancelled,
              std::function<void(HttpResponse)> done);

private:
    HttpTransport *m_transport;
    int m_timeoutMs = defaultTimeoutMs;
    QString m_caFile;
};
