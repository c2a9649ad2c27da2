#pragma once

#include "remote/connectioncheck.h"
#include "remote/serverendpoint.h"
#include "remote/serverrequest.h"
#include "remote/serverresponse.h"

#include <QObject>

#include <atomic>
#include <functional>

class NetworkWorker;
class QThread;

// The one owner of a remote directory's HTTP traffic. A dedicated network thread owns the
// QNetworkAccessManager; send() blocks only the calling thread (any thread, the GUI's
// included) until the answer or the timeout, without a nested event loop, so nothing
// re-enters the caller. sendAsync() does not block at all. Every answered or failed
// request is also reported by requestFinished(), queued to this object's thread, so the
// GUI can show latency, an offline banner and a refused key.
class ServerConnection final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServerConnection)

public:
    explicit ServerConnection(ServerEndpoint endpoint, QObject *parent = nullptr);
    ~ServerConnection() override;

    const ServerEndpoint &endpoint() const { return m_endpoint; }
    // The base URL as text, for titles and messages (it never holds the key).
    QString location() const;
    // Requests sent after this call carry `key` (the GUI's Change Key… after a 401, which
    // keeps the open directory and its unsaved edits). Call it on this object's thread.
    void setOwnerKey(const QString &key);

    ServerResponse send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body = {},
                        const QList<std::pair<QByteArray, QByteArray>> &extraHeaders = {}) const;
    ServerResponse send(const ServerRequest &request) const;
    // Starts the request and returns at once; `done` runs on the network thread exactly
    // once (also when the connection is destroyed first), so it must only hand over.
    void sendAsync(const ServerRequest &request, std::function<void(const ServerResponse &)> done) const;

    // Keyless, cheap round trip for the status bar's latency.
    ServerResponse ping() const;
    // Reachability and whether the owner key is accepted, by a mutating call that changes
    // nothing (an empty PATCH of a key no row can have: 401 = key refused, 400/404 = key
    // accepted), plus the row count when the server tells it cheaply.
    ConnectionCheck check() const;

    // Requests sent and not yet answered, from every thread.
    int inFlight() const { return m_inFlight.load(); }

signals:
    void requestFinished(const ServerResponse &response);
    // inFlight() changed; queued to this object's thread.
    void inFlightChanged(int requests);

private:
    ServerEndpoint m_endpoint;
    QThread *m_thread;
    NetworkWorker *m_worker; // lives on m_thread
    mutable std::atomic_int m_inFlight{0};
};
