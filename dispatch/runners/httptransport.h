#pragma once

#include "dispatch/runners/transportrequest.h"
#include "dispatch/runners/transportresponse.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QSslConfiguration>

#include <functional>
#include <optional>

class QNetworkAccessManager;

// The one owner of QNetworkAccessManagers: the runners' HttpClient and the remote
// directory's NetworkWorker both send through one of these. What it does for every
// request, written once:
//  - a deadline for the whole exchange (TransportRequest::timeoutMs);
//  - a cap on the response body, never silent: a longer body is cut and flagged, or
//    refused by name (TransportRequest::OverLimit); a declared Content-Length over a
//    refusing cap ends the request before any of the body is read;
//  - a body the server cuts short (fewer bytes than its Content-Length, or chunks without
//    the last one) is a Failure::Network that says how far it got, never an answer;
//  - TLS peers are always verified and sslErrors are never ignored: a refused certificate
//    ends the request as Failure::Certificate with a named error (TlsTrust); a request's
//    CA file adds to the system roots;
//  - the redirect policy and the headers (credentials included) of each request.
// Lives on one thread: send() and closeAll() are called there, and each `done` runs there.
class HttpTransport final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpTransport)

public:
    using Done = std::function<void(const TransportResponse &)>;

    explicit HttpTransport(QObject *parent = nullptr);
    // Requests still running are dropped without an answer; closeAll() answers them.
    ~HttpTransport() override;

    // `done` runs exactly once: with the answer, or with the failure, the deadline, the
    // cancellation or closeAll() that ended the request.
    void send(const TransportRequest &request, Done done);
    // Ends every running request with Failure::Closed and `reason`; each `done` has run
    // when this returns.
    void closeAll(const QString &reason);
    // The TLS configuration a request naming `caFile` uses (empty: the system roots only),
    // built once per file, or why there is none.
    std::optional<QSslConfiguration> tlsConfiguration(const QString &caFile, QString *error);

private:
    class Exchange;

    QNetworkAccessManager &managerFor(const QString &caFile);

    // One manager per CA file (the empty name: the system roots only). A manager keeps its
    // connections alive for later requests, and a connection verified against one CA file
    // must never carry a request that does not trust that CA.
    QHash<QString, QNetworkAccessManager *> m_managers;
    QHash<QString, QSslConfiguration> m_tls;
    QSet<Exchange *> m_running;
};
