#pragma once

#include "dispatch/mcp/mcpoptions.h"
#include "server/serverreply.h"

#include <QHttpServerRequest>
#include <QObject>
#include <QStringList>

#include <functional>
#include <list>
#include <memory>
#include <optional>

class Dispatcher;
class DirectoryLedger;
class DirectoryStore;
class McpChangeWatch;
class McpEventStream;
class McpSession;
class McpToolCatalog;
class QTcpSocket;

// /mcp on `capdeskctl serve`: the directory over MCP's Streamable HTTP, both protocol eras
// on the one endpoint, with no per-process session state (no Mcp-Session-Id):
//  - POST carries one JSON-RPC message. A request is answered with JSON; a notification
//    or a response with 202. `subscriptions/listen` (2026-07-28) is answered with an event
//    stream that acknowledges first and then carries list_changed tagged with its id.
//  - GET opens the 2025-era event stream, which carries list_changed.
// Before any of it: the Origin (none, a loopback origin on this server's port, or one the
// owner allowed; else 403), MCP-Protocol-Version (a version served; else 400), and the
// Mcp-Method / Mcp-Name headers against the body (a mismatch is 400). Changes come from
// the directory's change feed, so every server over the same file tells its listeners
// alike; a token's stream hears only of changes to its own list.
class McpEndpoint final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpEndpoint)

public:
    struct Caller
    {
        bool owner = false;
        QString token;
        QString audience;
    };
    struct Setup
    {
        McpOptions::Projection projection = McpOptions::Projection::Rows;
        QStringList allowedOrigins; // exact "scheme://host[:port]" texts
        qint64 maxUnsentBytes = 4 * 1024 * 1024;
        int keepAliveMs = 15000;
        int callTimeoutMs = 60000;
        bool announceVersion = false;
    };
    static constexpr int kMaxStreams = 64;
    static constexpr int kMaxCatalogs = 32;

    McpEndpoint(std::shared_ptr<const DirectoryStore> store, std::shared_ptr<DirectoryLedger> ledger,
                Dispatcher &dispatcher, Setup setup, QObject *parent = nullptr);
    ~McpEndpoint() override;

    // Once the server listens: the base URL receipts link to and the port the Origin may name.
    void setBaseUrl(const QString &baseUrl, quint16 port);
    // The Origin and header checks, before the request means anything; nullopt: go on.
    std::optional<ServerReply> refusalOf(const QHttpServerRequest &request) const;
    // The Origin check alone, for a request's head (before its key or body is judged).
    std::optional<ServerReply> refusalOfOrigin(const QByteArray &origin) const;
    // Whether the request is answered by an event stream (GET, or a POST of subscriptions/listen).
    static bool opensStream(const QHttpServerRequest &request);
    // POST of a message that is no stream: `answer` is called once, with JSON or 202.
    void post(const QHttpServerRequest &request, const Caller &caller,
              const std::function<void(const ServerReply &)> &answer);
    // GET, or a POST of subscriptions/listen: the stream on `socket`, or the refusal.
    std::optional<ServerReply> openStream(const QHttpServerRequest &request, QTcpSocket *socket,
                                          const Caller &caller);
    // At shutdown: every stream ends.
    void closeStreams();

private:
    struct Stream;

    // The caller's catalog, kept between requests (its rows are read once per change) for
    // the kMaxCatalogs callers seen last; one pushed out lives on while a request holds it.
    std::shared_ptr<McpToolCatalog> catalogFor(const Caller &caller);
    void directoryChanged();
    static QByteArray listFingerprint(McpToolCatalog &catalog);

    std::shared_ptr<const DirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    Dispatcher &m_dispatcher;
    Setup m_setup;
    QString m_baseUrl;
    quint16 m_port = 0;
    std::list<std::pair<std::pair<QString, QString>, std::shared_ptr<McpToolCatalog>>> m_catalogs;
    std::list<std::unique_ptr<Stream>> m_streams;
    std::unique_ptr<McpChangeWatch> m_watch;
};
