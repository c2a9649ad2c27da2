#include "server/directoryserver.h"

#include "dispatch/call/invocationhandle.h"
#include "dispatch/core/productversion.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/sqldirectorystore.h"
#include "server/accesslog.h"
#include "server/faultscreen.h"
#include "server/httpconnection.h"
#include "server/limitedsslserver.h"
#include "server/limitedtcpserver.h"
#include "server/serverreply.h"

#include <QHttpServerResponder>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>

using Method = QHttpServerRequest::Method;

namespace {

QByteArray methodName(Method method)
{
    switch (method) {
    case Method::Get:
        return QByteArrayLiteral("GET");
    case Method::Head:
        return QByteArrayLiteral("HEAD");
    case Method::Post:
        return QByteArrayLiteral("POST");
    case Method::Put:
        return QByteArrayLiteral("PUT");
    case Method::Patch:
        return QByteArrayLiteral("PATCH");
    case Method::Delete:
        return QByteArrayLiteral("DELETE");
    case Method::Options:
        return QByteArrayLiteral("OPTIONS");
    default:
        return QByteArrayLiteral("OTHER");
    }
}

QByteArray allowHeader(const QList<Method> &methods)
{
    QByteArrayList names;
    for (Method method : methods)
        names.append(methodName(method));
    return names.join(", ");
}

// An If-Match value may arrive as an ETag ("…" or W/"…"); the store compares bare updated_at.
QString ifMatchOf(const QHttpServerRequest &request)
{
    QString value = QString::fromUtf8(request.value(QByteArrayLiteral("if-match"))).trimmed();
    if (value.startsWith(QLatin1String("W/")))
        value = value.mid(2);
    if (value.size() >= 2 && value.startsWith(u'"') && value.endsWith(u'"'))
        value = value.mid(1, value.size() - 2);
    return value;
}

// The last guard before the wire: a name of token characters, a value with no control
// character but tab, so nothing a reply carries can end its line and start another.
bool isHeaderSafe(const QByteArray &name, const QByteArray &value)
{
    const auto tokenChar = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    };
    const auto fieldChar = [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte == '\t' || (byte >= 0x20 && byte != 0x7f);
    };
    return !name.isEmpty() && std::all_of(name.cbegin(), name.cend(), tokenChar)
           && std::all_of(value.cbegin(), value.cend(), fieldChar);
}

QString bearerTokenOf(const QHttpServerRequest &request)
{
    const QByteArray authorization = request.value(QByteArrayLiteral("authorization")).trimmed();
    if (!authorization.toLower().startsWith("bearer "))
        return {};
    return QString::fromUtf8(authorization.mid(7).trimmed());
}

} // namespace

DirectoryServer::DirectoryServer(ServeOptions options, OwnerKey ownerKey,
                                 const std::shared_ptr<SqlDirectoryStore> &store,
                                 const std::shared_ptr<DirectoryLedger> &ledger, Dispatcher &dispatcher,
                                 QObject *parent)
    : QAbstractHttpServer(parent), m_options(std::move(options)), m_ownerKey(std::move(ownerKey)),
      m_directory(store), m_dispatch(store, ledger, dispatcher, m_options.baseUrl()),
      m_mcp(store, ledger, dispatcher,
            {m_options.mcpProjection, m_options.allowedOrigins, m_options.limits.maxUnsentBytes,
             std::max(1000, m_options.limits.idleTimeoutMs / 2), m_options.dispatchTimeoutMs,
             m_options.announceVersion})
{
    m_clock.start();
}

DirectoryServer::~DirectoryServer() = default;

bool DirectoryServer::start(QString *error)
{
    auto check = [this](const RequestHead &head) { return refusalOnHead(head); };
    QTcpServer *tcp = nullptr;
    if (m_options.tls)
        tcp = new LimitedSslServer(m_options.limits, check, *m_options.tls, this);
    else
        tcp = new LimitedTcpServer(m_options.limits, check, this);
    if (!tcp->listen(m_options.address, m_options.port)) {
        *error = QStringLiteral("cannot listen on %1: %2").arg(m_options.baseUrl(), tcp->errorString());
        delete tcp;
        return false;
    }
    m_options.port = tcp->serverPort();
    m_dispatch.setBaseUrl(m_options.baseUrl());
    m_mcp.setBaseUrl(m_options.baseUrl(), m_options.port);
    bind(tcp);
    return true;
}

void DirectoryServer::shutdown()
{
    m_draining = true;
    for (QTcpServer *tcp : servers())
        tcp->close();
    m_mcp.closeStreams();
    checkDrained();
}

void DirectoryServer::checkDrained()
{
    if (!m_draining || m_running > 0)
        return;
    // Answers are queued on the sockets; give them to the kernel before the loop ends.
    bool pending = false;
    for (QTcpSocket *socket : findChildren<QTcpSocket *>()) {
        socket->flush();
        pending = pending || socket->bytesToWrite() > 0;
    }
    if (pending)
        QTimer::singleShot(10, this, &DirectoryServer::checkDrained);
    else
        emit drained();
}

DirectoryServer::Target DirectoryServer::resolve(const QString &path)
{
    QString clean = path;
    while (clean.size() > 1 && clean.endsWith(u'/'))
        clean.chop(1);
    if (clean == QLatin1String("/api/directory"))
        return {Route::Directory, {}};
    if (clean == QLatin1String("/api/dispatch"))
        return {Route::Dispatch, {}};
    if (clean == QLatin1String("/api/flow-runs"))
        return {Route::FlowRuns, {}};
    if (clean == QLatin1String("/mcp"))
        return {Route::Mcp, {}};
    for (const auto &[prefix, route] : {std::pair{QStringLiteral("/api/directory/"), Route::DirectoryRow},
                                        std::pair{QStringLiteral("/receipt/"), Route::Receipt}}) {
        const QString rest = clean.mid(prefix.size());
        if (clean.startsWith(prefix) && !rest.isEmpty() && !rest.contains(u'/'))
            return {route, rest};
    }
    return {};
}

QList<Method> DirectoryServer::methodsOf(Route route)
{
    switch (route) {
    case Route::Directory:
        return {Method::Get, Method::Head, Method::Post, Method::Options};
    case Route::DirectoryRow:
        return {Method::Get, Method::Head, Method::Put, Method::Patch, Method::Delete, Method::Options};
    case Route::Dispatch:
        return {Method::Get, Method::Head, Method::Post, Method::Options};
    case Route::FlowRuns:
        return {Method::Post, Method::Options};
    case Route::Receipt:
        return {Method::Get, Method::Head, Method::Options};
    case Route::Mcp:
        return {Method::Get, Method::Post, Method::Options};
    case Route::None:
        break;
    }
    return {};
}

DirectoryServer::Exchange DirectoryServer::exchangeOf(const QHttpServerRequest &request,
                                                      QTcpSocket *socket) const
{
    const HttpConnection *connection = HttpConnection::of(socket);
    return {methodName(request.method()),
            request.url(),
            m_clock.elapsed(),
            m_draining || (connection && connection->closesAfterAnswer()),
            socket->peerAddress(),
            m_ownerKey.matches(request.value(QByteArrayLiteral("x-terminal-key")))};
}

std::optional<ServerReply> DirectoryServer::refusalOnHead(const RequestHead &head)
{
    const Route route = resolve(QUrl::fromEncoded(head.target).path(QUrl::FullyDecoded)).route;
    // A foreign page is refused before anything about the caller is told.
    if (route == Route::Mcp) {
        if (std::optional<ServerReply> refused = m_mcp.refusalOfOrigin(head.value("origin")))
            return refused;
    }
    const bool reads = head.method == "GET" || head.method == "HEAD" || head.method == "OPTIONS";
    if (reads && head.contentLength == 0)
        return std::nullopt;
    const QByteArray presentedKey = head.value("x-terminal-key");
    const bool owner = m_ownerKey.matches(presentedKey);
    if (owner)
        return std::nullopt;
    const QByteArray authorization = head.value("authorization");
    const bool tokenCall = head.method == "POST" && (route == Route::Dispatch || route == Route::Mcp)
                           && authorization.toLower().startsWith("bearer ") && authorization.size() > 7;
    // A wrong key is refused even beside a capability token: it is someone guessing.
    if (presentedKey.isEmpty() && tokenCall)
        return m_dispatch.refusalOfToken(QString::fromUtf8(authorization.mid(7).trimmed()));
    return ServerReply::error(401, QStringLiteral("unauthorized"));
}

bool DirectoryServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    const Exchange exchange = exchangeOf(request, socket);
    QHttpServerResponder responder = makeResponder(request, socket);
    if (m_draining) {
        send(responder, exchange, ServerReply::error(503, QStringLiteral("the server is shutting down")));
        return true;
    }
    const Target target = resolve(request.url().path(QUrl::FullyDecoded));
    const QList<Method> allowed = methodsOf(target.route);
    if (target.route == Route::None) {
        send(responder, exchange, ServerReply::error(404, QStringLiteral("no such route")));
        return true;
    }
    if (!allowed.contains(request.method())) {
        ServerReply reply = ServerReply::error(405, QStringLiteral("method not allowed"));
        reply.headers.append({QByteArrayLiteral("Allow"), allowHeader(allowed)});
        send(responder, exchange, reply);
        return true;
    }
    if (request.method() == Method::Options) {
        ServerReply reply;
        reply.status = 204;
        reply.headers.append({QByteArrayLiteral("Allow"), allowHeader(allowed)});
        send(responder, exchange, reply);
        return true;
    }
    // A foreign page is refused before anything about the caller is told.
    if (target.route == Route::Mcp) {
        if (std::optional<ServerReply> refused = m_mcp.refusalOf(request)) {
            send(responder, exchange, *refused);
            return true;
        }
    }
    const QByteArray presentedKey = request.value(QByteArrayLiteral("x-terminal-key"));
    const bool owner = exchange.owner;
    const bool mutating = request.method() != Method::Get && request.method() != Method::Head;
    // A wrong key is refused even beside a capability token: it is someone guessing.
    const bool wrongKey = !presentedKey.isEmpty() && !owner;
    const bool tokenRoute = target.route == Route::Dispatch || target.route == Route::Mcp;
    const bool tokenCall = tokenRoute && !bearerTokenOf(request).isEmpty();
    // Everything on /mcp, reading the list included, is the owner's or a token holder's.
    const bool guarded = mutating || target.route == Route::Mcp;
    if (guarded && (wrongKey || (!owner && !tokenCall))) {
        send(responder, exchange, ServerReply::error(401, QStringLiteral("unauthorized")));
        return true;
    }
    if (target.route == Route::Mcp) {
        handleMcp(request, socket, exchange,
                  {owner, owner ? QString() : bearerTokenOf(request),
                   QString::fromUtf8(request.value(QByteArrayLiteral("x-capability-audience")))});
        return true;
    }
    if (target.route == Route::Dispatch && request.method() == Method::Post) {
        startDispatch(request, socket, exchange);
        return true;
    }
    if (target.route == Route::FlowRuns) {
        answerInvocation(request, socket, exchange, m_dispatch.recordFlowRun(request.body()));
        return true;
    }
    send(responder, exchange, handleSync(request, target, owner));
    return true;
}

void DirectoryServer::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket)
{
    QHttpServerResponder responder = makeResponder(request, socket);
    send(responder, exchangeOf(request, socket), ServerReply::error(404, QStringLiteral("no such route")));
}

ServerReply DirectoryServer::handleSync(const QHttpServerRequest &request, const Target &target, bool owner)
{
    const Method method = request.method() == Method::Head ? Method::Get : request.method();
    switch (target.route) {
    case Route::Directory:
        return method == Method::Get
                   ? m_directory.list(request.query(), request.value(QByteArrayLiteral("if-none-match")))
                   : m_directory.create(request.body());
    case Route::DirectoryRow:
        if (method == Method::Put)
            return m_directory.replace(target.argument, request.body(), ifMatchOf(request));
        if (method == Method::Patch)
            return m_directory.patch(target.argument, request.body(), ifMatchOf(request));
        if (method == Method::Delete)
            return m_directory.remove(target.argument, ifMatchOf(request));
        return m_directory.get(target.argument);
    case Route::Dispatch:
        return m_dispatch.query(request.query(), owner);
    case Route::Receipt:
        return m_dispatch.receiptPage(target.argument);
    case Route::FlowRuns:
    case Route::Mcp:
    case Route::None:
        break;
    }
    return ServerReply::error(404, QStringLiteral("no such route"));
}

void DirectoryServer::startDispatch(const QHttpServerRequest &request, QTcpSocket *socket,
                                    const Exchange &exchange)
{
    const DispatchApi::Caller caller{
        exchange.owner, bearerTokenOf(request),
        QString::fromUtf8(request.value(QByteArrayLiteral("x-capability-audience"))),
        request.value(QByteArrayLiteral("capdesk-call-budget")),
        QString::fromUtf8(request.value(QByteArrayLiteral("capdesk-actor")))};
    answerInvocation(request, socket, exchange, m_dispatch.start(request.body(), caller));
}

void DirectoryServer::handleMcp(const QHttpServerRequest &request, QTcpSocket *socket,
                                const Exchange &exchange, const McpEndpoint::Caller &caller)
{
    auto responder = std::make_shared<QHttpServerResponder>(makeResponder(request, socket));
    // A GET carries no body, so the head check has not judged its token yet.
    if (!caller.owner) {
        if (std::optional<ServerReply> refused = m_dispatch.refusalOfToken(caller.token)) {
            send(*responder, exchange, *refused);
            return;
        }
    }
    if (McpEndpoint::opensStream(request)) {
        if (std::optional<ServerReply> refused = m_mcp.openStream(request, socket, caller))
            send(*responder, exchange, *refused);
        else
            AccessLog::write(exchange.method, exchange.url, 200, m_clock.elapsed() - exchange.startedMs,
                             exchange.peer);
        return;
    }
    ++m_running;
    QPointer<QTcpSocket> connection(socket);
    m_mcp.post(request, caller, [this, connection, responder, exchange](const ServerReply &reply) {
        if (connection)
            send(*responder, exchange, reply);
        finishDispatch();
    });
}

void DirectoryServer::answerInvocation(const QHttpServerRequest &request, QTcpSocket *socket,
                                       const Exchange &exchange,
                                       const std::variant<ServerReply, InvocationHandle *> &started)
{
    auto responder = std::make_shared<QHttpServerResponder>(makeResponder(request, socket));
    if (auto *reply = std::get_if<ServerReply>(&started)) {
        send(*responder, exchange, *reply);
        return;
    }
    InvocationHandle *handle = std::get<InvocationHandle *>(started);
    ++m_running;
    // The connection may close while the call runs; then there is no one to answer, but
    // the call still finishes and its receipt is still written.
    QPointer<QTcpSocket> connection(socket);
    auto answered = std::make_shared<bool>(false);
    auto answer = [this, connection, responder, exchange, answered](const ServerReply &reply) {
        if (*answered)
            return;
        *answered = true;
        if (connection)
            send(*responder, exchange, reply);
        else
            AccessLog::write(exchange.method, exchange.url, 499, m_clock.elapsed() - exchange.startedMs,
                             exchange.peer);
    };
    auto *timer = new QTimer(handle);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [handle, answer, this] {
        handle->cancel();
        answer(ServerReply::error(
            504,
            QStringLiteral("the invocation did not finish within %1 ms").arg(m_options.dispatchTimeoutMs)));
    });
    auto finished = [this, handle, answer, exchange] {
        answer(m_dispatch.finish(handle->outcome(), exchange.owner));
        handle->deleteLater();
        finishDispatch();
    };
    if (handle->isFinished()) {
        finished();
        return;
    }
    connect(handle, &InvocationHandle::finished, this, finished);
    timer->start(m_options.dispatchTimeoutMs);
}

void DirectoryServer::finishDispatch()
{
    --m_running;
    checkDrained();
}

void DirectoryServer::send(QHttpServerResponder &responder, const Exchange &exchange,
                           const ServerReply &answer)
{
    const ServerReply reply = exchange.owner ? answer : FaultScreen::screened(answer);
    const bool head = exchange.method == "HEAD";
    responder.writeStatusLine(static_cast<QHttpServerResponder::StatusCode>(reply.status));
    // 204 and 304 have no body, so no length to announce (a 304's would be the 200's).
    if (reply.status != 204 && reply.status != 304) {
        responder.writeHeader(QByteArrayLiteral("Content-Type"), reply.contentType);
        responder.writeHeader(QByteArrayLiteral("Content-Length"), QByteArray::number(reply.body.size()));
    }
    responder.writeHeader(QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-store"));
    responder.writeHeader(QByteArrayLiteral("X-Content-Type-Options"), QByteArrayLiteral("nosniff"));
    if (m_options.announceVersion)
        responder.writeHeader(QByteArrayLiteral("Server"), ProductVersion::product());
    if (exchange.close || m_draining)
        responder.writeHeader(QByteArrayLiteral("Connection"), QByteArrayLiteral("close"));
    for (const auto &[name, value] : reply.headers) {
        if (isHeaderSafe(name, value))
            responder.writeHeader(name, value);
    }
    responder.writeBody(head ? QByteArray() : reply.body);
    if (HttpConnection *connection = HttpConnection::of(responder.socket()))
        connection->answered(exchange.close);
    AccessLog::write(exchange.method, exchange.url, reply.status, m_clock.elapsed() - exchange.startedMs,
                     exchange.peer);
}
