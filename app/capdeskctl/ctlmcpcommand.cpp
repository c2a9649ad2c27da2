#include "app/capdeskctl/ctlmcpcommand.h"

#include "app/capdeskctl/ctldispatchlimits.h"
#include "app/capdeskctl/ctlmcpstdio.h"
#include "app/capdeskctl/ctloutput.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "dispatch/mcp/mcpchangewatch.h"
#include "dispatch/mcp/mcpsession.h"
#include "dispatch/mcp/mcptoolcatalog.h"
#include "dispatch/runners/agentendpoints.h"
#include "dispatch/store/postgreslocation.h"
#include "remote/remotedirectorystore.h"
#include "remote/remotedispatcher.h"
#include "remote/serverconnection.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace {

// Polls a server at most this often: a change then reaches the client within a second or
// two, and a plain server (which answers with every row) is asked no more than it suggests.
constexpr int kBridgePollMs = 1000;

void logLine(const QString &line)
{
    std::fprintf(stderr, "capdeskctl mcp: %s\n", qPrintable(line));
    std::fflush(stderr);
}

QString projectionName(McpOptions::Projection projection)
{
    return projection == McpOptions::Projection::Rows ? u"rows"_s : u"contract"_s;
}

} // namespace

CtlMcpCommand::CtlMcpCommand(const CtlArguments &args) : m_args(args) {}

QString CtlMcpCommand::readOptions(McpOptions *options) const
{
    const std::optional<McpOptions::Projection> projection =
        McpOptions::projectionNamed(m_args.value(u"--tools"_s));
    if (!projection)
        return u"--tools is rows or contract, not '%1'"_s.arg(m_args.value(u"--tools"_s));
    options->projection = *projection;
    if (m_args.has(u"--page-size"_s)) {
        bool ok = false;
        const int size = m_args.value(u"--page-size"_s).toInt(&ok);
        if (!ok || size < 1 || size > McpOptions::kMaxPageSize)
            return u"--page-size takes a whole number from 1 to %1"_s.arg(McpOptions::kMaxPageSize);
        options->pageSize = size;
    }
    options->token = m_args.value(u"--token"_s);
    options->audience = m_args.value(u"--audience"_s);
    options->announceVersion = true; // the client runs this very binary
    return {};
}

int CtlMcpCommand::runLocal(const std::shared_ptr<DirectoryStore> &store,
                            const std::shared_ptr<DirectoryLedger> &ledger, const QString &dbPath)
{
    McpOptions options;
    QString error = readOptions(&options);
    const std::optional<DispatchLimits> limits = CtlDispatchLimits::parse(m_args, &error);
    if (!error.isEmpty() || !limits)
        return CtlOutput::usage(error);
    // The client may run in another folder: a file's path is absolute, and either is quoted
    // for a shell. A URL stays as it is: it is not a path.
    QString path = PostgresLocation::isUrl(dbPath) ? dbPath : QFileInfo(dbPath).absoluteFilePath();
    path = u"'"_s + path.replace(u"'"_s, u"'\\''"_s) + u"'"_s;
    // This capdeskctl by its own path: the client's PATH may not have it.
    QString program = QCoreApplication::applicationFilePath();
    program = u"'"_s + program.replace(u"'"_s, u"'\\''"_s) + u"'"_s;
    options.confirmCommand = program + u" confirm %1 --db "_s + path;
    QSettings settings;
    StandardDispatcher dispatcher(store, ledger, AgentEndpoints::fromSettings(settings), *limits);
    logLine(u"serving %1 over stdio (%2 projection)"_s.arg(dbPath, projectionName(options.projection)));
    return serve(store, ledger, dispatcher, options, McpChangeWatch::kLocalIntervalMs);
}

int CtlMcpCommand::runBridge(const std::shared_ptr<ServerConnection> &connection)
{
    McpOptions options;
    if (const QString error = readOptions(&options); !error.isEmpty())
        return CtlOutput::usage(error);
    // SPEC §10's confirm, which any server answers (a receipt page is ours alone).
    options.receiptUrl = connection->location() + u"/api/dispatch?confirm=%1"_s;
    if (connection->endpoint().ownerKey.isEmpty())
        logLine(
            u"CAPDESK_TERMINAL_KEY is not set: the tools are listed, but the server will refuse every call"_s);
    auto store = std::make_shared<RemoteDirectoryStore>(connection);
    RemoteDispatcher dispatcher(connection);
    logLine(u"bridging %1 over stdio (%2 projection)"_s.arg(connection->location(),
                                                            projectionName(options.projection)));
    return serve(store, nullptr, dispatcher, options,
                 std::max(kBridgePollMs, store->changePollIntervalMs() / 5));
}

int CtlMcpCommand::serve(const std::shared_ptr<DirectoryStore> &store,
                         const std::shared_ptr<DirectoryLedger> &ledger, Dispatcher &dispatcher,
                         const McpOptions &options, int pollIntervalMs)
{
    McpToolCatalog catalog(store, ledger, options);
    McpSession session(catalog, dispatcher);
    CtlMcpStdio stdio;
    McpChangeWatch watch(store, pollIntervalMs);

    QObject::connect(&stdio, &CtlMcpStdio::message, &session, &McpSession::receive);
    QObject::connect(&session, &McpSession::send, &stdio, &CtlMcpStdio::write);
    QObject::connect(&session, &McpSession::logged, &session, &logLine);
    QObject::connect(&stdio, &CtlMcpStdio::oversized, &session, [](qsizetype bytes) {
        logLine(u"dropped a message of %1 bytes: the limit is %2"_s.arg(bytes).arg(
            CtlMcpStdio::kMaxMessageBytes));
    });
    QObject::connect(&watch, &McpChangeWatch::changed, &session, [&session] {
        logLine(u"the directory changed: tools/list_changed"_s);
        session.toolsChanged();
    });
    QObject::connect(&watch, &McpChangeWatch::failed, &session,
                     [](const QString &message) { logLine(u"the change feed failed: %1"_s.arg(message)); });
    // At the end of stdin the answers still owed are sent, then the process ends.
    QObject::connect(&stdio, &CtlMcpStdio::closed, &session, [&session] {
        session.endListeners();
        if (session.isIdle())
            QCoreApplication::quit();
        else
            QObject::connect(&session, &McpSession::idle, &session, &QCoreApplication::quit);
    });
    watch.start();
    QCoreApplication::exec();
    return CtlOutput::Ok;
}
