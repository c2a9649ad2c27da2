#include "dispatch/core/productversion.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "dispatch/mcp/mcpsession.h"
#include "dispatch/mcp/mcptoolcatalog.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/tokens/capabilitytokenstore.h"
#include "tests/support/rawsql.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

Row fnRow(const QString &key, const QString &target, const QString &payload = u"[\"$1\"]"_s)
{
    Row row;
    row.key = key;
    row.type = u"fn"_s;
    row.target = target;
    row.content = u"# WHAT: %1 test row\n"_s.arg(key) + payload;
    return row;
}

QJsonObject meta2026()
{
    return {{u"io.modelcontextprotocol/protocolVersion"_s, u"2026-07-28"_s},
            {u"io.modelcontextprotocol/clientCapabilities"_s, QJsonObject()},
            {u"io.modelcontextprotocol/clientInfo"_s,
             QJsonObject{{u"name"_s, u"tst-2026"_s}, {u"version"_s, u"1"_s}}}};
}

QByteArray request(int id, const QString &method, QJsonObject params = {}, bool stateless = false)
{
    if (stateless)
        params.insert(u"_meta"_s, meta2026());
    return QJsonDocument(
               QJsonObject{
                   {u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"method"_s, method}, {u"params"_s, params}})
        .toJson(QJsonDocument::Compact);
}

} // namespace

// One MCP connection's JSON-RPC over a real directory file, the real dispatcher and its
// receipts: both protocol eras, paging, calls, refusals and list changes.
class TestMcpSession : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void initializeNegotiatesA2025Version_data();
    void initializeNegotiatesA2025Version();
    void serverInfoNamesTheVersionOnlyWhenAnnounced_data();
    void serverInfoNamesTheVersionOnlyWhenAnnounced();
    void discoverSaysWhatIsServed();
    void malformedMessages_data();
    void malformedMessages();
    void anUnsupportedPerRequestVersionIsRefused();
    void pagesCoverTheListOnce_data();
    void pagesCoverTheListOnce();
    void aCallIsReceiptedUnderTheClientsName();
    void callResults_data();
    void callResults();
    void aTokensListAndCallsStayInItsScope();
    void aStoreFaultIsToldToATokensClientOnlyByItsId_data();
    void aStoreFaultIsToldToATokensClientOnlyByItsId();
    void listChangedReachesEachListenerOnce();
    void theContractProjection();

private:
    // The messages the session sends in answer to `message`, waiting for `count` of them.
    QList<QJsonObject> exchange(const QByteArray &message, int count = 1);
    void makeSession(McpOptions options = {});

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    std::unique_ptr<StandardDispatcher> m_dispatcher;
    std::unique_ptr<McpToolCatalog> m_catalog;
    std::unique_ptr<McpSession> m_session;
};

void TestMcpSession::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto opened = SqlDirectoryStore::open(m_dir->filePath(u"d.db"_s));
    QVERIFY(opened.ok());
    m_store = opened.value();
    Row hidden = fnRow(u"HIDDEN"_s, u"upper"_s);
    hidden.plannerVisible = false;
    Row off = fnRow(u"OFF"_s, u"upper"_s);
    off.enabled = false;
    // No payload: fn's default ["$1"], not JSON text, so the arguments are joined.
    Row typed = fnRow(u"JOIN"_s, u"upper"_s, QString());
    typed.inputSchema = uR"({"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}}})"_s;
    Row secret = fnRow(u"SECRET"_s, u"upper"_s);
    secret.category = u"vault"_s;
    QVERIFY(!m_store
                 ->importRows(
                     {fnRow(u"SHOUT"_s, u"upper"_s), fnRow(u"BOOM"_s, u"fail"_s), hidden, off, typed, secret})
                 .isError());
    m_ledger = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly);
    m_dispatcher = std::make_unique<StandardDispatcher>(m_store, m_ledger);
    makeSession();
}

void TestMcpSession::cleanup()
{
    m_session.reset();
    m_catalog.reset();
    m_dispatcher.reset();
    m_ledger.reset();
    m_store.reset();
    m_dir.reset();
}

void TestMcpSession::makeSession(McpOptions options)
{
    m_session.reset();
    options.confirmCommand = u"capdeskctl confirm %1 --db d.db"_s;
    m_catalog = std::make_unique<McpToolCatalog>(m_store, m_ledger, options);
    m_session = std::make_unique<McpSession>(*m_catalog, *m_dispatcher);
}

QList<QJsonObject> TestMcpSession::exchange(const QByteArray &message, int count)
{
    QSignalSpy sent(m_session.get(), &McpSession::send);
    m_session->receive(message);
    while (sent.size() < count && sent.wait(10000)) {
    }
    QList<QJsonObject> messages;
    for (const QList<QVariant> &arguments : std::as_const(sent))
        messages.append(QJsonDocument::fromJson(arguments.at(0).toByteArray()).object());
    return messages;
}

void TestMcpSession::initializeNegotiatesA2025Version_data()
{
    QTest::addColumn<QString>("asked");
    QTest::addColumn<QString>("answered");

    QTest::addRow("2025-11-25") << u"2025-11-25"_s << u"2025-11-25"_s;
    QTest::addRow("2025-06-18") << u"2025-06-18"_s << u"2025-06-18"_s;
    QTest::addRow("2025-03-26") << u"2025-03-26"_s << u"2025-03-26"_s;
    QTest::addRow("older: the newest offered") << u"2024-11-05"_s << u"2025-11-25"_s;
    QTest::addRow("nonsense: the newest offered") << u"x"_s << u"2025-11-25"_s;
}

void TestMcpSession::initializeNegotiatesA2025Version()
{
    QFETCH(QString, asked);
    QFETCH(QString, answered);

    const QList<QJsonObject> replies =
        exchange(request(1, u"initialize"_s,
                         {{u"protocolVersion"_s, asked},
                          {u"capabilities"_s, QJsonObject()},
                          {u"clientInfo"_s, QJsonObject{{u"name"_s, u"c"_s}}}}));
    QCOMPARE(replies.size(), 1);
    const QJsonObject result = replies.first().value(u"result"_s).toObject();
    QCOMPARE(result.value(u"protocolVersion"_s).toString(), answered);
    QCOMPARE(result.value(u"capabilities"_s).toObject().value(u"tools"_s).toObject().value(u"listChanged"_s),
             QJsonValue(true));
    QCOMPARE(result.value(u"serverInfo"_s).toObject().value(u"name"_s).toString(), u"capdesk"_s);
    QVERIFY(!result.contains(u"resultType"_s));
}

// A network server names its version only when its owner asks; MCP still gets a string.
void TestMcpSession::serverInfoNamesTheVersionOnlyWhenAnnounced_data()
{
    QTest::addColumn<bool>("announce");
    QTest::addColumn<QString>("version");
    QTest::addRow("default") << false << u"undisclosed"_s;
    QTest::addRow("announced") << true << ProductVersion::number();
}

void TestMcpSession::serverInfoNamesTheVersionOnlyWhenAnnounced()
{
    QFETCH(bool, announce);
    QFETCH(QString, version);
    McpOptions options;
    options.announceVersion = announce;
    makeSession(options);
    const QJsonObject initialized = exchange(request(1, u"initialize"_s,
                                                     {{u"protocolVersion"_s, u"2025-11-25"_s},
                                                      {u"capabilities"_s, QJsonObject()},
                                                      {u"clientInfo"_s, QJsonObject{{u"name"_s, u"c"_s}}}}))
                                        .value(0)
                                        .value(u"result"_s)
                                        .toObject();
    QCOMPARE(initialized.value(u"serverInfo"_s).toObject().value(u"version"_s).toString(), version);
    const QJsonObject discovered =
        exchange(request(2, u"server/discover"_s, {}, true)).value(0).value(u"result"_s).toObject();
    QCOMPARE(discovered.value(u"serverInfo"_s).toObject().value(u"version"_s).toString(), version);
}

void TestMcpSession::discoverSaysWhatIsServed()
{
    const QList<QJsonObject> replies = exchange(request(7, u"server/discover"_s, {}, true));
    QCOMPARE(replies.size(), 1);
    QCOMPARE(replies.first().value(u"id"_s).toInt(), 7);
    const QJsonObject result = replies.first().value(u"result"_s).toObject();
    QCOMPARE(result.value(u"supportedVersions"_s).toArray().first().toString(), u"2026-07-28"_s);
    QVERIFY(result.value(u"supportedVersions"_s).toArray().contains(u"2025-11-25"_s));
    QCOMPARE(result.value(u"resultType"_s).toString(), u"complete"_s);
    QCOMPARE(result.value(u"cacheScope"_s).toString(), u"public"_s);
    QVERIFY(result.value(u"ttlMs"_s).toInt() > 0);
}

void TestMcpSession::malformedMessages_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<int>("code");

    QTest::addRow("not JSON") << QByteArray("{\"jsonrpc\":") << -32700;
    QTest::addRow("a batch") << QByteArray(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])") << -32600;
    QTest::addRow("no jsonrpc member") << QByteArray(R"({"id":1,"method":"ping"})") << -32600;
    QTest::addRow("an object id") << QByteArray(R"({"jsonrpc":"2.0","id":{},"method":"ping"})") << -32600;
    QTest::addRow("params not an object")
        << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[]})") << -32602;
    QTest::addRow("an unknown method")
        << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})") << -32601;
    QTest::addRow("a call without a name")
        << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}})")
        << -32602;
    QTest::addRow("arguments not an object") << QByteArray(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"SHOUT","arguments":"x"}})")
                                             << -32602;
    QTest::addRow("an unknown tool") << QByteArray(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"NOPE","arguments":{}}})")
                                     << -32602;
    QTest::addRow("a disabled row is no tool") << QByteArray(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"OFF","arguments":{"body":"x"}}})")
                                               << -32602;
    QTest::addRow("a cursor not handed out")
        << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"!!"}})") << -32602;
}

void TestMcpSession::malformedMessages()
{
    QFETCH(QByteArray, message);
    QFETCH(int, code);

    const QList<QJsonObject> replies = exchange(message);
    QCOMPARE(replies.size(), 1);
    QCOMPARE(replies.first().value(u"error"_s).toObject().value(u"code"_s).toInt(), code);
    QVERIFY(!replies.first().value(u"error"_s).toObject().value(u"message"_s).toString().isEmpty());
}

void TestMcpSession::anUnsupportedPerRequestVersionIsRefused()
{
    QJsonObject meta = meta2026();
    meta.insert(u"io.modelcontextprotocol/protocolVersion"_s, u"2099-01-01"_s);
    const QList<QJsonObject> replies = exchange(request(3, u"tools/list"_s, {{u"_meta"_s, meta}}));
    QCOMPARE(replies.size(), 1);
    const QJsonObject error = replies.first().value(u"error"_s).toObject();
    QCOMPARE(error.value(u"code"_s).toInt(), -32022);
    QCOMPARE(error.value(u"data"_s).toObject().value(u"requested"_s).toString(), u"2099-01-01"_s);
    QVERIFY(error.value(u"data"_s).toObject().value(u"supported"_s).toArray().contains(u"2026-07-28"_s));
}

void TestMcpSession::pagesCoverTheListOnce_data()
{
    QTest::addColumn<int>("pageSize");
    QTest::addColumn<bool>("stateless");

    QTest::addRow("one page") << 500 << false;
    QTest::addRow("pages of 1") << 1 << false;
    QTest::addRow("pages of 3, 2026") << 3 << true;
}

void TestMcpSession::pagesCoverTheListOnce()
{
    QFETCH(int, pageSize);
    QFETCH(bool, stateless);

    McpOptions options;
    options.pageSize = pageSize;
    makeSession(options);
    QStringList names;
    QString cursor;
    int pages = 0;
    do {
        QJsonObject params;
        if (!cursor.isEmpty())
            params.insert(u"cursor"_s, cursor);
        const QList<QJsonObject> replies = exchange(request(pages + 1, u"tools/list"_s, params, stateless));
        QCOMPARE(replies.size(), 1);
        const QJsonObject result = replies.first().value(u"result"_s).toObject();
        QVERIFY(result.value(u"tools"_s).toArray().size() <= pageSize);
        for (const QJsonValue &tool : result.value(u"tools"_s).toArray())
            names.append(tool.toObject().value(u"name"_s).toString());
        QCOMPARE(result.contains(u"ttlMs"_s), stateless);
        QCOMPARE(result.contains(u"cacheScope"_s), stateless);
        cursor = result.value(u"nextCursor"_s).toString();
        ++pages;
    } while (!cursor.isEmpty() && pages < 20);
    // Enabled and planner-visible only, each once, in key order.
    QCOMPARE(names, (QStringList{u"BOOM"_s, u"JOIN"_s, u"SECRET"_s, u"SHOUT"_s}));
    QCOMPARE(pages, (4 + pageSize - 1) / pageSize);
}

void TestMcpSession::aCallIsReceiptedUnderTheClientsName()
{
    exchange(request(1, u"initialize"_s,
                     {{u"protocolVersion"_s, u"2025-11-25"_s},
                      {u"clientInfo"_s, QJsonObject{{u"name"_s, u"tst client!"_s}}}}));
    const QList<QJsonObject> replies = exchange(request(
        2, u"tools/call"_s, {{u"name"_s, u"SHOUT"_s}, {u"arguments"_s, QJsonObject{{u"body"_s, u"hi"_s}}}}));
    QCOMPARE(replies.size(), 1);
    const QJsonObject result = replies.first().value(u"result"_s).toObject();
    QCOMPARE(result.value(u"isError"_s), QJsonValue(false));
    QCOMPARE(result.value(u"content"_s).toArray().first().toObject().value(u"text"_s).toString(), u"HI"_s);
    const QJsonObject meta = result.value(u"_meta"_s).toObject();
    const QString id = meta.value(u"capdesk/invocation_id"_s).toString();
    QCOMPARE(meta.value(u"capdesk/confirm"_s).toString(), u"capdeskctl confirm %1 --db d.db"_s.arg(id));
    const StoreResult<Receipt> receipt = m_ledger->receipts().find(id);
    QVERIFY2(receipt.ok(), qPrintable(id));
    // The name is cleaned before it reaches a receipt.
    QCOMPARE(receipt.value().actor, u"mcp:tstclient"_s);
    QCOMPARE(receipt.value().key, u"SHOUT"_s);
    QCOMPARE(m_ledger->confirm(id).value(u"confirmed"_s), QJsonValue(true));
}

void TestMcpSession::callResults_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QJsonObject>("arguments");
    QTest::addColumn<bool>("isError");
    QTest::addColumn<QString>("text");

    QTest::addRow("an ERR: output") << u"BOOM"_s << QJsonObject{{u"body"_s, u"x"_s}} << true << u"ERR:"_s;
    QTest::addRow("body missing") << u"SHOUT"_s << QJsonObject() << true << u"argument 'body' is required"_s;
    QTest::addRow("an argument the schema lacks")
        << u"JOIN"_s << QJsonObject{{u"c"_s, u"1"_s}} << true << u"unknown argument 'c'"_s;
    QTest::addRow("joined in the schema text's order")
        << u"JOIN"_s << QJsonObject{{u"a"_s, u"x"_s}, {u"b"_s, u"first"_s}} << false << u"FIRST"_s;
    QTest::addRow("'|' in the last argument without $N+ is refused")
        << u"JOIN"_s << QJsonObject{{u"a"_s, u"x|y"_s}, {u"b"_s, u"f"_s}} << true
        << u"argument 'a' contains '|'"_s;
    QTest::addRow("'|' in an earlier argument is refused")
        << u"JOIN"_s << QJsonObject{{u"a"_s, u"x"_s}, {u"b"_s, u"f|g"_s}} << true
        << u"argument 'b' contains '|'"_s;
}

void TestMcpSession::callResults()
{
    QFETCH(QString, tool);
    QFETCH(QJsonObject, arguments);
    QFETCH(bool, isError);
    QFETCH(QString, text);

    const QList<QJsonObject> replies =
        exchange(request(5, u"tools/call"_s, {{u"name"_s, tool}, {u"arguments"_s, arguments}}, true));
    QCOMPARE(replies.size(), 1);
    const QJsonObject result = replies.first().value(u"result"_s).toObject();
    QCOMPARE(result.value(u"isError"_s).toBool(), isError);
    QCOMPARE(result.value(u"resultType"_s).toString(), u"complete"_s);
    const QString got = result.value(u"content"_s).toArray().first().toObject().value(u"text"_s).toString();
    QVERIFY2(got.startsWith(text) || got.contains(text), qPrintable(got));
}

void TestMcpSession::aTokensListAndCallsStayInItsScope()
{
    CapabilityToken spec;
    spec.audience = u"planner"_s;
    spec.allowedKeys = {u"SHOUT"_s};
    spec.allowedCategories = {u"vault"_s};
    spec.riskCeiling = u"high"_s;
    const StoreResult<CapabilityTokenStore::Minted> minted =
        m_ledger->tokens().create(spec, u"owner:local"_s);
    QVERIFY2(minted.ok(), qPrintable(minted.error().message));
    McpOptions options;
    options.token = minted.value().value;
    options.audience = u"planner"_s;
    makeSession(options);

    const QList<QJsonObject> listed = exchange(request(1, u"tools/list"_s, {}, true));
    QStringList names;
    for (const QJsonValue &tool : listed.first().value(u"result"_s).toObject().value(u"tools"_s).toArray())
        names.append(tool.toObject().value(u"name"_s).toString());
    QCOMPARE(names, (QStringList{u"SECRET"_s, u"SHOUT"_s}));
    QCOMPARE(listed.first().value(u"result"_s).toObject().value(u"cacheScope"_s).toString(), u"private"_s);

    const QList<QJsonObject> outside = exchange(request(
        2, u"tools/call"_s, {{u"name"_s, u"BOOM"_s}, {u"arguments"_s, QJsonObject{{u"body"_s, u"x"_s}}}}));
    QCOMPARE(outside.first().value(u"error"_s).toObject().value(u"code"_s).toInt(), -32602);
    const QList<QJsonObject> inside = exchange(request(
        3, u"tools/call"_s, {{u"name"_s, u"SHOUT"_s}, {u"arguments"_s, QJsonObject{{u"body"_s, u"x"_s}}}}));
    const QString id = inside.first()
                           .value(u"result"_s)
                           .toObject()
                           .value(u"_meta"_s)
                           .toObject()
                           .value(u"capdesk/invocation_id"_s)
                           .toString();
    QCOMPARE(m_ledger->receipts().find(id).value().actor, u"token:"_s + minted.value().token.id);
}

void TestMcpSession::aStoreFaultIsToldToATokensClientOnlyByItsId_data()
{
    QTest::addColumn<bool>("token");
    QTest::addRow("the owner's session: told the store's error") << false;
    QTest::addRow("a token's session: told a fault id") << true;
}

// The store fails under the session (its table is gone). The owner reads why; a token's
// client, who is not the owner, reads that it happened, under the id the log explains.
void TestMcpSession::aStoreFaultIsToldToATokensClientOnlyByItsId()
{
    QFETCH(bool, token);
    McpOptions options;
    if (token) {
        CapabilityToken spec;
        spec.audience = u"planner"_s;
        spec.allowedKeys = {u"SHOUT"_s};
        const StoreResult<CapabilityTokenStore::Minted> minted =
            m_ledger->tokens().create(spec, u"owner:local"_s);
        QVERIFY2(minted.ok(), qPrintable(minted.error().message));
        options.token = minted.value().value;
        options.audience = u"planner"_s;
    }
    options.projection = McpOptions::Projection::Contract;
    makeSession(options);
    const QString failure =
        RawSql::exec(m_dir->filePath(u"d.db"_s), {u"ALTER TABLE directory RENAME TO gone"_s});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));

    const QList<QJsonObject> searched = exchange(request(
        1, u"tools/call"_s,
        {{u"name"_s, u"directory_search"_s}, {u"arguments"_s, QJsonObject{{u"query"_s, u"shout"_s}}}}));
    const QJsonObject result = searched.first().value(u"result"_s).toObject();
    QVERIFY(result.value(u"isError"_s).toBool());
    const QString text = result.value(u"content"_s).toArray().first().toObject().value(u"text"_s).toString();
    QVERIFY2(text.contains(u"(fault "_s) == token, qPrintable(text));
    QVERIFY2(text.contains(u"directory"_s) != token, qPrintable(text));
}

void TestMcpSession::listChangedReachesEachListenerOnce()
{
    QSignalSpy sent(m_session.get(), &McpSession::send);
    // Before a handshake or a listener nobody is told.
    m_session->toolsChanged();
    QCOMPARE(sent.size(), 0);

    exchange(request(1, u"initialize"_s, {{u"protocolVersion"_s, u"2025-11-25"_s}}));
    const QList<QJsonObject> ack =
        exchange(request(9, u"subscriptions/listen"_s,
                         {{u"notifications"_s, QJsonObject{{u"toolsListChanged"_s, true}}}}, true));
    QCOMPARE(ack.size(), 1);
    QCOMPARE(ack.first().value(u"method"_s).toString(), u"notifications/subscriptions/acknowledged"_s);
    QCOMPARE(ack.first()
                 .value(u"params"_s)
                 .toObject()
                 .value(u"notifications"_s)
                 .toObject()
                 .value(u"toolsListChanged"_s),
             QJsonValue(true));
    sent.clear();
    m_session->toolsChanged();
    QCOMPARE(sent.size(), 2);
    const QJsonObject plain = QJsonDocument::fromJson(sent.at(0).at(0).toByteArray()).object();
    const QJsonObject tagged = QJsonDocument::fromJson(sent.at(1).at(0).toByteArray()).object();
    QCOMPARE(plain.value(u"method"_s).toString(), u"notifications/tools/list_changed"_s);
    QVERIFY(!plain.contains(u"params"_s));
    QCOMPARE(tagged.value(u"method"_s).toString(), u"notifications/tools/list_changed"_s);
    // A listen asking for nothing ends at once; a cancelled one hears no more.
    const QList<QJsonObject> idle =
        exchange(request(10, u"subscriptions/listen"_s, {{u"notifications"_s, QJsonObject()}}, true), 2);
    QCOMPARE(idle.size(), 2);
    QCOMPARE(idle.at(1).value(u"id"_s).toInt(), 10);
    QVERIFY(idle.at(1).contains(u"result"_s));
    exchange(request(11, u"subscriptions/listen"_s,
                     {{u"notifications"_s, QJsonObject{{u"toolsListChanged"_s, true}}}}, true));
    m_session->receive(QJsonDocument(QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                                                 {u"method"_s, u"notifications/cancelled"_s},
                                                 {u"params"_s, QJsonObject{{u"requestId"_s, 11}}}})
                           .toJson(QJsonDocument::Compact));
    // The connection ends: the listen request gets its closing result, and nothing more is told.
    sent.clear();
    m_session->endListeners();
    QCOMPARE(sent.size(), 1);
    const QJsonObject closing = QJsonDocument::fromJson(sent.at(0).at(0).toByteArray()).object();
    QCOMPARE(closing.value(u"id"_s).toInt(), 9);
    QCOMPARE(closing.value(u"result"_s).toObject().value(u"resultType"_s).toString(), u"complete"_s);
    sent.clear();
    m_session->toolsChanged();
    QCOMPARE(sent.size(), 1); // the 2025 handshake's, not the ended listener's
    QCOMPARE(tagged.value(u"params"_s)
                 .toObject()
                 .value(u"_meta"_s)
                 .toObject()
                 .value(u"io.modelcontextprotocol/subscriptionId"_s)
                 .toInt(),
             9);
}

void TestMcpSession::theContractProjection()
{
    McpOptions options;
    options.projection = McpOptions::Projection::Contract;
    makeSession(options);
    const QList<QJsonObject> listed = exchange(request(1, u"tools/list"_s));
    QStringList names;
    for (const QJsonValue &tool : listed.first().value(u"result"_s).toObject().value(u"tools"_s).toArray())
        names.append(tool.toObject().value(u"name"_s).toString());
    QCOMPARE(names, (QStringList{u"directory_search"_s, u"directory_contract"_s, u"dispatch"_s}));

    const QJsonObject found = exchange(request(2, u"tools/call"_s,
                                               {{u"name"_s, u"directory_search"_s},
                                                {u"arguments"_s, QJsonObject{{u"query"_s, u"shout"_s}}}}))
                                  .first()
                                  .value(u"result"_s)
                                  .toObject();
    const QJsonArray results = found.value(u"structuredContent"_s).toObject().value(u"results"_s).toArray();
    QCOMPARE(results.size(), 1);
    QCOMPARE(results.first().toObject().value(u"key"_s).toString(), u"SHOUT"_s);

    const QJsonObject contract = exchange(request(3, u"tools/call"_s,
                                                  {{u"name"_s, u"directory_contract"_s},
                                                   {u"arguments"_s, QJsonObject{{u"key"_s, u"HIDDEN"_s}}}}))
                                     .first()
                                     .value(u"result"_s)
                                     .toObject();
    QCOMPARE(contract.value(u"isError"_s), QJsonValue(true));

    const QJsonObject called =
        exchange(request(4, u"tools/call"_s,
                         {{u"name"_s, u"dispatch"_s},
                          {u"arguments"_s, QJsonObject{{u"key"_s, u"SHOUT"_s}, {u"body"_s, u"abc"_s}}}}))
            .first()
            .value(u"result"_s)
            .toObject();
    QCOMPARE(called.value(u"content"_s).toArray().first().toObject().value(u"text"_s).toString(), u"ABC"_s);
    QVERIFY(called.value(u"_meta"_s).toObject().contains(u"capdesk/invocation_id"_s));

    // dispatch reaches only the rows the other two show: a hidden or disabled row is no
    // capability here, and is not run.
    int id = 5;
    for (const QString &key : {u"HIDDEN"_s, u"OFF"_s, u"NOPE"_s}) {
        const QJsonObject refused =
            exchange(request(id++, u"tools/call"_s,
                             {{u"name"_s, u"dispatch"_s},
                              {u"arguments"_s, QJsonObject{{u"key"_s, key}, {u"body"_s, u"abc"_s}}}}))
                .first()
                .value(u"result"_s)
                .toObject();
        QCOMPARE(refused.value(u"isError"_s), QJsonValue(true));
        QCOMPARE(refused.value(u"content"_s).toArray().first().toObject().value(u"text"_s).toString(),
                 u"no capability has the key '%1'"_s.arg(key));
        ReceiptLog::Query query;
        query.key = key;
        QVERIFY(m_ledger->receipts().list(query).value().isEmpty());
    }
}

QTEST_GUILESS_MAIN(TestMcpSession)
#include "tst_mcpsession.moc"
