#pragma once

#include "remote/serverendpoint.h"
#include "remote/serverrequest.h"
#include "remote/serverresponse.h"

#include <QObject>

#include <functional>

class HttpTransport;
struct TransportRequest;
struct TransportResponse;

// ServerConnection's half on the network thread: it turns ServerRequests into requests of
// its HttpTransport (the base URL's path prefix, JSON headers, the owner key when the
// request speaks for the owner, the endpoint's timeout, body cap and CA file, no
// redirects) and the transport's answers into ServerResponses. Only ever called on its
// own thread.
class NetworkWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NetworkWorker)

public:
    using Done = std::function<void(const ServerResponse &)>;

    explicit NetworkWorker(ServerEndpoint endpoint);
    ~NetworkWorker() override;

    void start(const ServerRequest &request, Done done);
    void setOwnerKey(const QString &key) { m_endpoint.ownerKey = key; }
    // Answers every running request with "the connection was closed".
    void closeAll();

signals:
    void finished(const ServerResponse &response);

private:
    TransportRequest transportRequestFor(const ServerRequest &request) const;
    static ServerResponse responseOf(const ServerRequest &request, const TransportResponse &answer);

    ServerEndpoint m_endpoint;
    HttpTransport *m_transport;
};
