#include "server/mcpendpoint.h"

#include "dispatch/mcp/mcpchangewatch.h"
#include "dispatch/mcp/mcpsession.h"
#include "dispatch/mcp/mcptoolcatalog.h"
#include "dispatch/mcp/mcpwire.h"
#include "server/mcpeventstream.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace {

using namespace McpWire;

ServerReply rpcError(int status, const QJsonValue &id, int code, const QString &message,
                     const QJsonObject &data = {})
{
    QJsonObject error{{u"code"_s, code}, {u"message"_s, message}};
    if (!data.isEmpty())
        error.insert(u"data"_s, data);
    ServerReply reply;
    reply.status = status;
    reply.body = QJsonDocument(QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                                           {u"id"_s, id.isUndefined() ? QJsonValue(QJsonValue::Null) : id},
                                           {u"error"_s, error}})
                     .toJson(QJsonDocument::Compact);
    return reply;
}

// MCP's header encoding for a value that is not plain ASCII: =?base64?…?=.
QString headerText(const QByteArray &value)
{
    const QByteArray trimmed = value.trimmed();
    if (trimmed.startsWith("=?base64?") && trimmed.endsWith("?="))
        return QString::fromUtf8(QByteArray::fromBase64(trimmed.mid(9, trimmed.size() - 11)));
    return QString::fromUtf8(trimmed);
}

void logMethod(const QString &line)
{
    std::fprintf(stderr, "capdeskctl serve: mcp %s\n", qPrintable(line));
    std::fflush(stderr);
}

} // namespace

struct McpEndpoint::Stream
{
    Caller caller;
    std::shared_ptr<McpToolCatalog> catalog;
    std::unique_ptr<McpSession> session;
    McpEventStream *events = nullptr;
    QByteArray fingerprint; // a token's list as last told
};

McpEndpoint::McpEndpoint(std::shared_ptr<const DirectoryStore> store, std::shared_ptr<DirectoryLedger> ledger,
                         Dispatcher &dispatcher, Setup setup, QObject *parent)
    : QObject(parent), m_store(std::move(store)), m_ledger(std::move(ledger)), m_dispatcher(dispatcher),
      m_setup(std::move(setup)),
      m_watch(std::make_unique<McpChangeWatch>(m_store, McpChangeWatch::kLocalIntervalMs))
{
    connect(m_watch.get(), &McpChangeWatch::changed, this, &McpEndpoint::directoryChanged);
    connect(m_watch.get(), &McpChangeWatch::failed, this, [](const QString &message) {
        logMethod(u"change feed failed (lists may be stale until it recovers): "_s + message);
    });
    m_watch->start();
}

McpEndpoint::~McpEndpoint() = default;

void McpEndpoint::setBaseUrl(const QString &baseUrl, quint16 port)
{
    m_baseUrl = baseUrl;
    m_port = port;
}

std::optional<ServerReply> McpEndpoint::refusalOfOrigin(const QByteArray &value) const
{
    // DNS rebinding: a page elsewhere must not reach a loopback server through the browser.
    const QByteArray origin = value.trimmed();
    if (!origin.isEmpty()) {
        const QUrl url(QString::fromUtf8(origin), QUrl::StrictMode);
        const bool loopback =
            (url.scheme() == "http"_L1 || url.scheme() == "https"_L1)
            && (url.host() == "127.0.0.1"_L1 || url.host() == "localhost"_L1 || url.host() == "::1"_L1)
            && url.port(url.scheme() == "https"_L1 ? 443 : 80) == m_port;
        QString text = QString::fromUtf8(origin);
        while (text.endsWith(u'/'))
            text.chop(1);
        if (!loopback && !m_setup.allowedOrigins.contains(text))
            return ServerReply::error(
                403, u"Origin %1 may not use /mcp: serve allows this server's own loopback origin and those "
                     "named by --allow-origin"_s.arg(text.left(200)));
    }
    return std::nullopt;
}

std::optional<ServerReply> McpEndpoint::refusalOf(const QHttpServerRequest &request) const
{
    if (std::optional<ServerReply> refused = refusalOfOrigin(request.value(QByteArrayLiteral("origin"))))
        return refused;
    const QJsonObject message = QJsonDocument::fromJson(request.body()).object();
    const QJsonValue id = message.value(u"id"_s);
    const QByteArray versionHeader = request.value(QByteArrayLiteral("mcp-protocol-version")).trimmed();
    if (!versionHeader.isEmpty() && !servedVersions().contains(QString::fromUtf8(versionHeader)))
        return rpcError(
            400, id, kUnsupportedVersion,
            u"MCP-Protocol-Version '%1' is not served"_s.arg(QString::fromUtf8(versionHeader.left(40))),
            {{u"supported"_s, QJsonArray::fromStringList(servedVersions())},
             {u"requested"_s, QString::fromUtf8(versionHeader.left(40))}});
    if (request.method() != QHttpServerRequest::Method::Post || message.isEmpty())
        return std::nullopt;
    const QString metaVersion = metaVersionOf(message);
    if (!versionHeader.isEmpty() && !metaVersion.isEmpty() && metaVersion != QString::fromUtf8(versionHeader))
        return rpcError(400, id, kHeaderMismatch,
                        u"MCP-Protocol-Version says %1 but the request's _meta says %2"_s.arg(
                            QString::fromUtf8(versionHeader), metaVersion.left(40)));
    const QByteArray methodHeader = request.value(QByteArrayLiteral("mcp-method"));
    const QString method = message.value(u"method"_s).toString();
    if (!methodHeader.isEmpty() && headerText(methodHeader) != method)
        return rpcError(400, id, kHeaderMismatch,
                        u"Mcp-Method '%1' does not match the body's method '%2'"_s.arg(
                            headerText(methodHeader).left(64), method.left(64)));
    const QByteArray nameHeader = request.value(QByteArrayLiteral("mcp-name"));
    const QString name = message.value(u"params"_s).toObject().value(u"name"_s).toString();
    if (!nameHeader.isEmpty() && method == "tools/call"_L1 && headerText(nameHeader) != name)
        return rpcError(400, id, kHeaderMismatch,
                        u"Mcp-Name '%1' does not match the tool called, '%2'"_s.arg(
                            headerText(nameHeader).left(64), name.left(64)));
    return std::nullopt;
}

bool McpEndpoint::opensStream(const QHttpServerRequest &request)
{
    if (request.method() == QHttpServerRequest::Method::Get)
        return true;
    return request.method() == QHttpServerRequest::Method::Post
           && QJsonDocument::fromJson(request.body()).object().value(u"method"_s)
                  == "subscriptions/listen"_L1;
}

std::shared_ptr<McpToolCatalog> McpEndpoint::catalogFor(const Caller &caller)
{
    const std::pair<QString, QString> scope{caller.token, caller.audience};
    const auto found = std::find_if(m_catalogs.begin(), m_catalogs.end(),
                                    [&scope](const auto &entry) { return entry.first == scope; });
    if (found != m_catalogs.end()) {
        m_catalogs.splice(m_catalogs.begin(), m_catalogs, found);
        return m_catalogs.front().second;
    }
    McpOptions options;
    options.projection = m_setup.projection;
    options.token = caller.token;
    options.audience = caller.audience;
    options.receiptUrl = m_baseUrl + u"/receipt/%1"_s;
    options.announceVersion = m_setup.announceVersion;
    m_catalogs.emplace_front(scope, std::make_shared<McpToolCatalog>(m_store, m_ledger, options));
    if (m_catalogs.size() > size_t(kMaxCatalogs))
        m_catalogs.pop_back();
    return m_catalogs.front().second;
}

void McpEndpoint::post(const QHttpServerRequest &request, const Caller &caller,
                       const std::function<void(const ServerReply &)> &answer)
{
    QJsonParseError parsed{};
    const QJsonDocument document = QJsonDocument::fromJson(request.body(), &parsed);
    if (parsed.error != QJsonParseError::NoError || !document.isObject()) {
        answer(rpcError(400, QJsonValue::Null, document.isArray() ? kInvalidRequest : kParseError,
                        document.isArray() ? u"a POST carries one JSON-RPC message (batches are not served)"_s
                                           : u"not JSON: %1"_s.arg(parsed.errorString())));
        return;
    }
    const QJsonObject message = document.object();
    const QJsonValue id = message.value(u"id"_s);
    if (!message.contains(u"method"_s) || id.isUndefined()) {
        // A notification or a response: nothing to answer with but acceptance.
        if (message.contains(u"method"_s))
            logMethod(loggable(message.value(u"method"_s).toString()) + u" (notification)"_s);
        ServerReply accepted;
        accepted.status = 202;
        answer(accepted);
        return;
    }
    if (!id.isString() && !id.isDouble()) {
        answer(rpcError(400, QJsonValue::Null, kInvalidRequest, u"'id' must be a string or a number"_s));
        return;
    }
    const std::shared_ptr<McpToolCatalog> catalog = catalogFor(caller);
    auto *session = new McpSession(*catalog, m_dispatcher, this);
    // The catalog lives as long as the session that reads it.
    connect(session, &QObject::destroyed, [catalog] {});
    auto answered = std::make_shared<bool>(false);
    const auto finish = [session, answered, answer](const ServerReply &reply) {
        if (*answered)
            return;
        *answered = true;
        answer(reply);
        session->deleteLater();
    };
    connect(session, &McpSession::logged, session, &logMethod);
    connect(session, &McpSession::send, session, [id, finish](const QByteArray &sent) {
        const QJsonObject reply = QJsonDocument::fromJson(sent).object();
        if (reply.value(u"id"_s) != id || reply.contains(u"method"_s))
            return;
        ServerReply json;
        json.body = sent;
        finish(json);
    });
    auto *timer = new QTimer(session);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, session, [this, id, finish] {
        finish(rpcError(200, id, kCallTimedOut,
                        u"the call did not finish within %1 ms; its receipt is written when it does"_s.arg(
                            m_setup.callTimeoutMs)));
    });
    timer->start(m_setup.callTimeoutMs);
    session->receive(request.body());
}

std::optional<ServerReply> McpEndpoint::openStream(const QHttpServerRequest &request, QTcpSocket *socket,
                                                   const Caller &caller)
{
    const bool get = request.method() == QHttpServerRequest::Method::Get;
    if (get && !request.value(QByteArrayLiteral("accept")).contains("text/event-stream"))
        return ServerReply::error(406, u"GET /mcp opens an event stream: Accept text/event-stream"_s);
    const QJsonObject message = QJsonDocument::fromJson(request.body()).object();
    if (!get && metaVersionOf(message) != kStatelessVersion)
        return rpcError(
            400, message.value(u"id"_s), kUnsupportedVersion,
            u"subscriptions/listen is a 2026-07-28 request: its _meta names that version"_s,
            {{u"supported"_s, QJsonArray{kStatelessVersion}}, {u"requested"_s, metaVersionOf(message)}});
    if (!get && !message.value(u"params"_s).toObject().value(u"notifications"_s).isObject())
        return rpcError(400, message.value(u"id"_s), kInvalidParams,
                        u"subscriptions/listen names the notifications it wants in 'notifications'"_s);
    if (m_streams.size() >= size_t(kMaxStreams))
        return ServerReply::error(503, u"%1 event streams are open; try again later"_s.arg(kMaxStreams));
    auto stream = std::make_unique<Stream>();
    stream->caller = caller;
    stream->catalog = catalogFor(caller);
    stream->session = std::make_unique<McpSession>(*stream->catalog, m_dispatcher);
    stream->events = new McpEventStream(socket, m_setup.maxUnsentBytes, m_setup.keepAliveMs, this);
    if (!stream->events->open()) {
        stream->events->deleteLater();
        return std::nullopt;
    }
    McpEventStream *events = stream->events;
    connect(stream->session.get(), &McpSession::send, events, [events](const QByteArray &message) {
        events->send(message);
        // The listen request's own answer ends its subscription, and so the stream.
        const QJsonObject sent = QJsonDocument::fromJson(message).object();
        if (!sent.contains(u"method"_s) && sent.contains(u"id"_s))
            events->close();
    });
    connect(stream->session.get(), &McpSession::logged, events, &logMethod);
    connect(events, &McpEventStream::closed, this, [this, events] {
        // Dropped after the signal returns: the stream is still on the stack here.
        QTimer::singleShot(0, this, [this, gone = QPointer<McpEventStream>(events)] {
            if (!gone)
                return;
            m_streams.remove_if([&gone](const std::unique_ptr<Stream> &s) { return s->events == gone; });
            gone->deleteLater();
        });
    });
    if (!caller.token.isEmpty())
        stream->fingerprint = listFingerprint(*stream->catalog);
    if (get) {
        logMethod(u"GET event stream"_s);
        stream->session->listenUnsolicited();
    } else {
        stream->session->receive(request.body());
    }
    m_streams.push_back(std::move(stream));
    return std::nullopt;
}

void McpEndpoint::closeStreams()
{
    for (const std::unique_ptr<Stream> &stream : m_streams) {
        // A listen request is answered (its subscription ends gracefully), then its stream.
        stream->session->endListeners();
        stream->events->close();
    }
}

QByteArray McpEndpoint::listFingerprint(McpToolCatalog &catalog)
{
    const StoreResult<QJsonArray> tools = catalog.tools();
    if (!tools.ok())
        return {};
    return QCryptographicHash::hash(QJsonDocument(tools.value()).toJson(QJsonDocument::Compact),
                                    QCryptographicHash::Sha256);
}

void McpEndpoint::directoryChanged()
{
    for (const auto &[scope, catalog] : m_catalogs)
        catalog->invalidate();
    for (const std::unique_ptr<Stream> &stream : m_streams) {
        if (!stream->caller.token.isEmpty()) {
            // A token hears only of changes to the list it sees.
            stream->catalog->invalidate();
            const QByteArray now = listFingerprint(*stream->catalog);
            if (now == stream->fingerprint)
                continue;
            stream->fingerprint = now;
        }
        stream->session->toolsChanged();
    }
}
