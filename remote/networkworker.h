#pragma once

#include "serverendpoint.h"
#include "serverrequest.h"
#include "serverresponse.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

// ServerConnection's half on the network thread: it owns the QNetworkAccessManager and
// every running reply, enforces the per-request timeout and hands each answer to its
// callback. Only ever called on its own thread.
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
    struct Running
    {
        Done done;
        QTimer *timer = nullptr;
        qint64 startedMs = 0;
        ServerRequest request;
        bool timedOut = false;
    };

    QNetworkAccessManager &manager();
    void complete(QNetworkReply *reply);
    void answer(Running running, ServerResponse response);

    ServerEndpoint m_endpoint;
    QNetworkAccessManager *m_manager = nullptr;
    QHash<QNetworkReply *, Running> m_running;
    QElapsedTimer m_clock;
};
