#pragma once

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QStringList>

class Dispatcher;
class InvocationHandle;
class McpToolCatalog;
struct InvocationOutcome;

// One MCP connection's JSON-RPC, in both protocol eras, whatever carries the messages:
//  - 2025-11-25 (and 2025-06-18, 2025-03-26): `initialize` settles the version for the
//    connection; row changes reach it as notifications/tools/list_changed.
//  - 2026-07-28: stateless. Each request names its version in
//    params._meta["io.modelcontextprotocol/protocolVersion"]; `server/discover` says what
//    is served; `subscriptions/listen` opens a listener that is acknowledged first and
//    then gets list_changed tagged with its subscription id. Results carry resultType,
//    and tools/list carries ttlMs and cacheScope.
// tools/call goes through the dispatcher like POST /api/dispatch (same gate, runner and
// receipt), as actor `mcp:<client name>` (or the token's).
class McpSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpSession)

public:
    static constexpr int kMaxRunningCalls = 8;
    static constexpr int kMaxListeners = 16;
    // How long a client may cache a tools/list (2026 era); changes are pushed sooner.
    static constexpr int kToolsTtlMs = 60000;

    McpSession(McpToolCatalog &catalog, Dispatcher &dispatcher, QObject *parent = nullptr);
    ~McpSession() override;

    // One message as received (a JSON text); answers come out of send().
    void receive(const QByteArray &message);
    // The directory's rows changed: one list_changed to each listener of this connection.
    void toolsChanged();
    // Hears of changes without a handshake or a listen request: the 2025-era GET stream
    // of Streamable HTTP, whose client initialized over another request.
    void listenUnsolicited() { m_unsolicited = true; }
    // The connection ends: each open subscriptions/listen gets its closing (empty) result.
    void endListeners();
    bool isIdle() const { return m_running.isEmpty(); }

signals:
    // One JSON-RPC message, compact, without a line end.
    void send(const QByteArray &message);
    // What a log line may say of a message: its method (never its arguments).
    void logged(const QString &line);
    void idle();

private:
    struct Request
    {
        QJsonValue id;
        QString method;
        QJsonObject params;
        bool stateless = false; // a 2026-07-28 request
    };

    void handle(const Request &request);
    void reply(const QJsonValue &id, QJsonObject result, bool stateless);
    void fail(const QJsonValue &id, int code, const QString &message, const QJsonValue &data = QJsonValue());
    QJsonObject initialize(const QJsonObject &params);
    QJsonObject discover() const;
    void listTools(const Request &request);
    void callTool(const Request &request);
    void listen(const Request &request);
    void finishCall(InvocationHandle *handle);
    QJsonObject callResult(const InvocationOutcome &outcome, bool stateless) const;
    QString actor() const;
    void rememberClient(const QJsonObject &clientInfo);

    McpToolCatalog &m_catalog;
    Dispatcher &m_dispatcher;
    QString m_handshakeVersion; // set by initialize
    bool m_unsolicited = false;
    QString m_clientName;
    QList<QJsonValue> m_listeners; // the ids of open subscriptions/listen requests
    struct Running
    {
        QJsonValue id;
        bool stateless = false;
    };
    QHash<InvocationHandle *, Running> m_running;
};
