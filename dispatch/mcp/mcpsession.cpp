#include "dispatch/mcp/mcpsession.h"

#include "dispatch/call/dispatcher.h"
#include "dispatch/call/invocationhandle.h"
#include "dispatch/core/faultnotice.h"
#include "dispatch/core/productversion.h"
#include "dispatch/mcp/mcptoolcatalog.h"
#include "dispatch/mcp/mcpwire.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <utility>

using namespace Qt::StringLiterals;

namespace {

using namespace McpWire;

constexpr qsizetype kMaxClientName = 64;

QJsonObject capabilities()
{
    return {{u"tools"_s, QJsonObject{{u"listChanged"_s, true}}}};
}

// MCP requires a version string; an unannounced one says so rather than inventing one.
QJsonObject serverInfo(const McpOptions &options)
{
    return {{u"name"_s, u"capdesk"_s},
            {u"version"_s, options.announceVersion ? ProductVersion::number() : u"undisclosed"_s}};
}

QString instructions()
{
    return u"Capdesk serves a capability directory: each tool is one row, called with the one contract "
           "{key, body}. Every call is receipted; its invocation id is in the result's _meta."_s;
}

} // namespace

McpSession::McpSession(McpToolCatalog &catalog, Dispatcher &dispatcher, QObject *parent)
    : QObject(parent), m_catalog(catalog), m_dispatcher(dispatcher)
{}

McpSession::~McpSession()
{
    for (auto it = m_running.keyBegin(); it != m_running.keyEnd(); ++it)
        delete *it;
}

void McpSession::receive(const QByteArray &message)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(message, &error);
    if (error.error != QJsonParseError::NoError) {
        fail(QJsonValue::Null, kParseError, u"not JSON: %1"_s.arg(error.errorString()));
        return;
    }
    if (!document.isObject()) {
        fail(QJsonValue::Null, kInvalidRequest,
             u"a message is one JSON-RPC object (batches are not served)"_s);
        return;
    }
    const QJsonObject object = document.object();
    const QJsonValue id = object.value(u"id"_s);
    if (!object.contains(u"method"_s))
        return; // a response to nothing this server asked, or junk without an id to answer
    const bool notification = id.isUndefined();
    if (!notification && !id.isString() && !id.isDouble()) {
        fail(QJsonValue::Null, kInvalidRequest, u"'id' must be a string or a number"_s);
        return;
    }
    if (object.value(u"jsonrpc"_s) != "2.0"_L1 || !object.value(u"method"_s).isString()) {
        if (!notification)
            fail(id, kInvalidRequest, u"expected {\"jsonrpc\":\"2.0\", \"method\": string}"_s);
        return;
    }
    const QJsonValue params = object.value(u"params"_s);
    if (!params.isUndefined() && !params.isObject()) {
        if (!notification)
            fail(id, kInvalidParams, u"'params' must be an object"_s);
        return;
    }
    Request request{id, object.value(u"method"_s).toString(), params.toObject(), false};
    emit logged(u"%1%2"_s.arg(loggable(request.method), notification ? u" (notification)"_s : QString()));
    if (notification) {
        // A client that stops listening cancels its listen request; nothing else here
        // depends on a notification (initialized, roots).
        if (request.method == "notifications/cancelled"_L1)
            m_listeners.removeAll(request.params.value(u"requestId"_s));
        return;
    }
    const QJsonObject meta = request.params.value(u"_meta"_s).toObject();
    if (meta.contains(kVersionKey)) {
        const QString version = meta.value(kVersionKey).toString();
        if (version != kStatelessVersion) {
            fail(id, kUnsupportedVersion, u"protocol version '%1' is not served per request"_s.arg(version),
                 QJsonObject{{u"supported"_s, QJsonArray::fromStringList(servedVersions())},
                             {u"requested"_s, version}});
            return;
        }
        request.stateless = true;
        rememberClient(meta.value(kClientInfoKey).toObject());
    }
    handle(request);
}

void McpSession::handle(const Request &request)
{
    const QString &method = request.method;
    if (method == "initialize"_L1 && request.stateless)
        fail(request.id, kUnsupportedVersion,
             u"2026-07-28 has no initialize: send requests with their _meta"_s,
             QJsonObject{{u"supported"_s, QJsonArray::fromStringList(kHandshakeVersions)},
                         {u"requested"_s, kStatelessVersion}});
    else if (method == "initialize"_L1)
        reply(request.id, initialize(request.params), false);
    else if (method == "ping"_L1)
        reply(request.id, {}, request.stateless);
    else if (method == "server/discover"_L1)
        reply(request.id, discover(), true);
    else if (method == "tools/list"_L1)
        listTools(request);
    else if (method == "tools/call"_L1)
        callTool(request);
    else if (method == "subscriptions/listen"_L1 && request.stateless)
        listen(request);
    else
        fail(request.id, kMethodNotFound, u"method '%1' is not served"_s.arg(method));
}

void McpSession::reply(const QJsonValue &id, QJsonObject result, bool stateless)
{
    if (stateless)
        result.insert(u"resultType"_s, u"complete"_s);
    const QJsonObject message{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}};
    emit send(QJsonDocument(message).toJson(QJsonDocument::Compact));
}

void McpSession::fail(const QJsonValue &id, int code, const QString &message, const QJsonValue &data)
{
    QJsonObject error{{u"code"_s, code}, {u"message"_s, message}};
    if (!data.isUndefined() && !data.isNull())
        error.insert(u"data"_s, data);
    const QJsonObject reply{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"error"_s, error}};
    emit send(QJsonDocument(reply).toJson(QJsonDocument::Compact));
}

QJsonObject McpSession::initialize(const QJsonObject &params)
{
    // The client's version when this server speaks it, else the newest it speaks; the
    // client then decides whether to go on.
    const QString asked = params.value(u"protocolVersion"_s).toString();
    m_handshakeVersion = kHandshakeVersions.contains(asked) ? asked : kHandshakeVersions.first();
    rememberClient(params.value(u"clientInfo"_s).toObject());
    return {{u"protocolVersion"_s, m_handshakeVersion},
            {u"capabilities"_s, capabilities()},
            {u"serverInfo"_s, serverInfo(m_catalog.options())},
            {u"instructions"_s, instructions()}};
}

QJsonObject McpSession::discover() const
{
    // The 2.x client reads serverInfo from _meta; the body's is for anyone else.
    return {
        {u"supportedVersions"_s, QJsonArray::fromStringList(servedVersions())},
        {u"capabilities"_s, capabilities()},
        {u"serverInfo"_s, serverInfo(m_catalog.options())},
        {u"_meta"_s, QJsonObject{{u"io.modelcontextprotocol/serverInfo"_s, serverInfo(m_catalog.options())}}},
        {u"instructions"_s, instructions()},
        {u"ttlMs"_s, kToolsTtlMs},
        {u"cacheScope"_s, m_catalog.options().token.isEmpty() ? u"public"_s : u"private"_s}};
}

void McpSession::listTools(const Request &request)
{
    const QJsonValue cursor = request.params.value(u"cursor"_s);
    if (!cursor.isUndefined() && !cursor.isString()) {
        fail(request.id, kInvalidParams, u"'cursor' must be a string"_s);
        return;
    }
    bool badCursor = false;
    const StoreResult<QJsonObject> page = m_catalog.page(cursor.toString(), &badCursor);
    if (badCursor) {
        fail(request.id, kInvalidParams, u"unknown cursor '%1'"_s.arg(cursor.toString().left(64)));
        return;
    }
    if (!page.ok()) {
        // A token's client is not the owner: the store's fault stays in the log (FaultNotice).
        const QString why = m_catalog.options().token.isEmpty() ? page.error().message
                                                                : FaultNotice::hide(page.error().message);
        fail(request.id, kServerBusy, u"the directory could not be read: %1"_s.arg(why));
        return;
    }
    QJsonObject result = page.value();
    if (request.stateless) {
        // A token's list is its own: no shared cache may hand it to another caller.
        result.insert(u"ttlMs"_s, kToolsTtlMs);
        result.insert(u"cacheScope"_s, m_catalog.options().token.isEmpty() ? u"public"_s : u"private"_s);
    }
    reply(request.id, result, request.stateless);
}

void McpSession::callTool(const Request &request)
{
    const QJsonValue name = request.params.value(u"name"_s);
    const QJsonValue arguments = request.params.value(u"arguments"_s);
    if (!name.isString() || name.toString().isEmpty()) {
        fail(request.id, kInvalidParams, u"'name' must be a tool's name"_s);
        return;
    }
    if (!arguments.isUndefined() && !arguments.isObject()) {
        fail(request.id, kInvalidParams, u"'arguments' must be an object"_s);
        return;
    }
    if (m_running.size() >= kMaxRunningCalls) {
        fail(request.id, kServerBusy,
             u"%1 calls are running on this connection; retry when one ends"_s.arg(kMaxRunningCalls));
        return;
    }
    const McpToolCatalog::Call call = m_catalog.call(name.toString(), arguments.toObject(), actor());
    if (const auto *answer = std::get_if<McpToolCatalog::Answer>(&call)) {
        if (answer->unknownTool) {
            fail(request.id, kInvalidParams, answer->text);
            return;
        }
        QJsonObject result{
            {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, answer->text}}}},
            {u"isError"_s, answer->isError}};
        if (answer->structured)
            result.insert(u"structuredContent"_s, *answer->structured);
        reply(request.id, result, request.stateless);
        return;
    }
    InvocationHandle *handle = m_dispatcher.invoke(std::get<InvocationRequest>(call));
    m_running.insert(handle, {request.id, request.stateless});
    if (handle->isFinished())
        finishCall(handle);
    else
        connect(handle, &InvocationHandle::finished, this, [this, handle] { finishCall(handle); });
}

void McpSession::finishCall(InvocationHandle *handle)
{
    const Running running = m_running.take(handle);
    const QJsonObject result = callResult(handle->outcome(), running.stateless);
    handle->deleteLater();
    reply(running.id, result, running.stateless);
    if (m_running.isEmpty())
        emit idle();
}

QJsonObject McpSession::callResult(const InvocationOutcome &outcome, bool stateless) const
{
    // A token holder is not the owner: a server fault's text stays in the log (FaultNotice).
    const bool owner = m_catalog.options().token.isEmpty();
    const QString refusal =
        owner || outcome.refusalStatus != 500 ? outcome.refusal : FaultNotice::hide(outcome.refusal);
    const QString text = refusal.isEmpty() ? outcome.result.output : u"refused: "_s + refusal;
    QJsonObject result{{u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, text}}}},
                       {u"isError"_s, !outcome.material()}};
    if (outcome.material()) {
        // 1.x clients validate structuredContent as an object; the 2026 era takes any JSON.
        const QJsonDocument json = QJsonDocument::fromJson(outcome.result.output.toUtf8());
        if (json.isObject())
            result.insert(u"structuredContent"_s, json.object());
        else if (json.isArray() && stateless)
            result.insert(u"structuredContent"_s, json.array());
    }
    if (!outcome.invocationId.isEmpty()) {
        QJsonObject meta{{u"capdesk/invocation_id"_s, outcome.invocationId},
                         {u"capdesk/trace"_s, outcome.trace}};
        const McpOptions &options = m_catalog.options();
        // A server keeps its receipts at its own page, whether or not it handed one over.
        if (!options.receiptUrl.isEmpty())
            meta.insert(u"capdesk/receipt"_s, options.receiptUrl.arg(outcome.invocationId));
        else if (outcome.receipt && !options.confirmCommand.isEmpty())
            meta.insert(u"capdesk/confirm"_s, options.confirmCommand.arg(outcome.invocationId));
        if (!outcome.receipt)
            meta.insert(u"capdesk/receipt_error"_s, owner || outcome.receiptError.isEmpty()
                                                        ? outcome.receiptError
                                                        : FaultNotice::hide(outcome.receiptError));
        result.insert(u"_meta"_s, meta);
    }
    return result;
}

void McpSession::listen(const Request &request)
{
    const QJsonValue filter = request.params.value(u"notifications"_s);
    if (!filter.isObject()) {
        fail(request.id, kInvalidParams,
             u"subscriptions/listen names the notifications it wants in 'notifications'"_s);
        return;
    }
    if (m_listeners.size() >= kMaxListeners) {
        fail(request.id, kServerBusy, u"%1 listen requests are open on this connection"_s.arg(kMaxListeners));
        return;
    }
    const QJsonObject asked = filter.toObject();
    // Only the tools list changes here; the acknowledgement says which asks are honoured.
    const bool tools = asked.value(u"toolsListChanged"_s).toBool();
    const QJsonObject honoured{{u"toolsListChanged"_s, tools}};
    const QJsonObject ack{
        {u"jsonrpc"_s, u"2.0"_s},
        {u"method"_s, u"notifications/subscriptions/acknowledged"_s},
        {u"params"_s, QJsonObject{{u"notifications"_s, honoured},
                                  {u"_meta"_s, QJsonObject{{kSubscriptionKey, request.id}}}}}};
    emit send(QJsonDocument(ack).toJson(QJsonDocument::Compact));
    if (tools)
        m_listeners.append(request.id);
    else // nothing here it could be told: the subscription ends at once
        reply(request.id, {{u"_meta"_s, QJsonObject{{kSubscriptionKey, request.id}}}}, true);
}

void McpSession::toolsChanged()
{
    m_catalog.invalidate();
    if (!m_handshakeVersion.isEmpty() || m_unsolicited) {
        const QJsonObject note{{u"jsonrpc"_s, u"2.0"_s},
                               {u"method"_s, u"notifications/tools/list_changed"_s}};
        emit send(QJsonDocument(note).toJson(QJsonDocument::Compact));
    }
    for (const QJsonValue &id : std::as_const(m_listeners)) {
        const QJsonObject note{{u"jsonrpc"_s, u"2.0"_s},
                               {u"method"_s, u"notifications/tools/list_changed"_s},
                               {u"params"_s, QJsonObject{{u"_meta"_s, QJsonObject{{kSubscriptionKey, id}}}}}};
        emit send(QJsonDocument(note).toJson(QJsonDocument::Compact));
    }
}

void McpSession::endListeners()
{
    const QList<QJsonValue> listeners = std::exchange(m_listeners, {});
    for (const QJsonValue &id : listeners)
        reply(id, {{u"_meta"_s, QJsonObject{{kSubscriptionKey, id}}}}, true);
}

QString McpSession::actor() const
{
    return u"mcp:"_s + (m_clientName.isEmpty() ? u"unnamed"_s : m_clientName);
}

void McpSession::rememberClient(const QJsonObject &clientInfo)
{
    // A name from outside goes into receipts and a bridge's Capdesk-Actor header: ASCII
    // letters, digits and -_.@/ only, short, no separators that could pass for another actor's.
    QString name;
    for (const QChar c : clientInfo.value(u"name"_s).toString().left(kMaxClientName)) {
        const char16_t u = c.unicode();
        const bool ascii = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9');
        if (ascii || u == u'-' || u == u'_' || u == u'.' || u == u'@' || u == u'/')
            name.append(c);
    }
    if (!name.isEmpty())
        m_clientName = name;
}
