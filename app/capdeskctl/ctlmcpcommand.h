#pragma once

#include "app/capdeskctl/ctlarguments.h"
#include "dispatch/mcp/mcpoptions.h"

#include <memory>

class Dispatcher;
class DirectoryLedger;
class DirectoryStore;
class ServerConnection;

// `capdeskctl mcp`: a directory as an MCP server on stdio (SPEC §12), both protocol eras,
// until stdin ends and the calls still running have been answered. Row changes from any
// writer reach the client as notifications/tools/list_changed. stdout holds JSON-RPC
// only; a line per message handled goes to stderr, naming its method.
//  - `--db FILE [--tools rows|contract] [--token T --audience A] [--page-size N]`: a local
//    file, calls dispatched here, receipts in the file.
//  - `--server URL [--tools …] [--page-size N]`: a bridge to a server (ours or any with
//    SPEC §10's routes). tools/list comes from its rows, tools/call goes through its POST
//    /api/dispatch with the owner key of CAPDESK_TERMINAL_KEY, and changes are found by
//    polling its directory. The server records the call: ours as the MCP client (the
//    owner's Capdesk-Actor header), a plain one as whoever it records.
class CtlMcpCommand final
{
public:
    explicit CtlMcpCommand(const CtlArguments &args);
    int runLocal(const std::shared_ptr<DirectoryStore> &store, const std::shared_ptr<DirectoryLedger> &ledger,
                 const QString &dbPath);
    int runBridge(const std::shared_ptr<ServerConnection> &connection);

private:
    // --tools, --page-size, --token, --audience and the dispatch limits, each checked; the
    // usage error, or empty.
    QString readOptions(McpOptions *options) const;
    int serve(const std::shared_ptr<DirectoryStore> &store, const std::shared_ptr<DirectoryLedger> &ledger,
              Dispatcher &dispatcher, const McpOptions &options, int pollIntervalMs);

    const CtlArguments &m_args;
};
