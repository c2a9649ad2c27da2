#pragma once

#include "server/directoryapi.h"
#include "server/dispatchapi.h"
#include "server/httpconnection.h"
#include "server/mcpendpoint.h"
#include "server/ownerkey.h"
#include "server/serveoptions.h"

#include <QAbstractHttpServer>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QHttpServerRequest>
#include <QUrl>

#include <memory>

class Dispatcher;
class DirectoryLedger;
class QHttpServerResponder;
class SqlDirectoryStore;
struct ServerReply;

// `capdeskctl serve`: SPEC §10 over one directory. Routing is done here rather than with
// QHttpServer's router because 6.4's router answers a wrong method and a trailing slash
// with 404 and knows no HEAD or OPTIONS; this class answers each deliberately:
//  - a trailing slash is the same resource (`/api/directory/` is `/api/directory`);
//  - a known path with another method is 405 with an Allow header;
//  - HEAD is GET without the body; OPTIONS is 204 with Allow (no CORS headers: the
//    server is for the desktop app and scripts, not for pages in a browser).
// Writes and reads run on this thread; a dispatch runs asynchronously and is answered
// when its handle finishes, or 504 after the per-request timeout.
class DirectoryServer final : public QAbstractHttpServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DirectoryServer)

public:
    DirectoryServer(ServeOptions options, OwnerKey ownerKey, const std::shared_ptr<SqlDirectoryStore> &store,
                    const std::shared_ptr<DirectoryLedger> &ledger, Dispatcher &dispatcher,
                    QObject *parent = nullptr);
    ~DirectoryServer() override;

    bool start(QString *error);
    // After start(): the URL the server answers on, with the port it really got.
    QString baseUrl() const { return m_options.baseUrl(); }
    // Stops accepting connections and answers 503 to new requests on open ones; emits
    // drained() once every running dispatch has been answered and its bytes sent.
    void shutdown();

signals:
    void drained();

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    enum class Route { None, Directory, DirectoryRow, Dispatch, FlowRuns, Receipt, Mcp };
    struct Target
    {
        Route route = Route::None;
        QString argument; // the key or the invocation id
    };
    // What the access log and a late answer need, copied out of the request: 6.4 reuses
    // the request object for the connection's next request.
    struct Exchange
    {
        QByteArray method;
        QUrl url;
        qint64 startedMs = 0;
        bool close = false;
        QHostAddress peer;
        bool owner = false; // a valid x-terminal-key: told a fault's reason
    };

    static Target resolve(const QString &path);
    static QList<QHttpServerRequest::Method> methodsOf(Route route);
    // `owner`: the request carried the owner key (Exchange::owner).
    ServerReply handleSync(const QHttpServerRequest &request, const Target &target, bool owner);
    void startDispatch(const QHttpServerRequest &request, QTcpSocket *socket, const Exchange &exchange);
    // /mcp, once the caller is known to be the owner or a token holder.
    void handleMcp(const QHttpServerRequest &request, QTcpSocket *socket, const Exchange &exchange,
                   const McpEndpoint::Caller &caller);
    // Answers with `started`'s reply, or with the invocation's once it finishes (504 after
    // the dispatch timeout).
    void answerInvocation(const QHttpServerRequest &request, QTcpSocket *socket, const Exchange &exchange,
                          const std::variant<ServerReply, InvocationHandle *> &started);
    Exchange exchangeOf(const QHttpServerRequest &request, QTcpSocket *socket) const;
    // The owner-key rule decided on the head, before a body is read: a request that carries
    // a body or changes something needs the key, or a capability token on POST /api/dispatch
    // that the token store does not already refuse (unknown, revoked, expired).
    std::optional<ServerReply> refusalOnHead(const RequestHead &head);
    void send(QHttpServerResponder &responder, const Exchange &exchange, const ServerReply &answer);
    void finishDispatch();
    void checkDrained();

    ServeOptions m_options;
    OwnerKey m_ownerKey;
    DirectoryApi m_directory;
    DispatchApi m_dispatch;
    McpEndpoint m_mcp;
    QElapsedTimer m_clock;
    int m_running = 0;
    bool m_draining = false;
};
