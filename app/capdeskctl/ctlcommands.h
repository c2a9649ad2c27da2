#pragma once

#include "app/capdeskctl/ctlarguments.h"
#include "app/capdeskctl/ctllintcommands.h"
#include "app/capdeskctl/ctlreceiptcommands.h"

#include <memory>

class DirectoryLedger;
class DirectoryStore;
class ServerConnection;
class SqliteDirectoryStore;

// The commands of SPEC §11, each a thin call into the engine. With `--server URL` the row
// commands (get, put, patch, delete, import, export, lint, contract, mcp-tools, flow-plan)
// run against the server's directory through the same DirectoryStore interface, and
// invoke and confirm ask the server; the commands about a local file's own records
// (receipts, log, token, public-key, init, serve) refuse --server by name.
class CtlCommands final
{
public:
    explicit CtlCommands(CtlArguments arguments);
    int run();

private:
    int init();
    int importFile();
    int exportRows();
    int get();
    int put();
    int patch();
    int remove();
    int invoke();
    int receiptCommand(int (CtlReceiptCommands::*command)());
    int verifyReceipt();
    int publicKey();
    int log();
    int token();
    int flowPlan();
    int lintCommand(int (CtlLintCommands::*command)());

    // Only init and import may create the file; a typo in --db must not leave an empty
    // directory behind (nor pre-empt the GUI's first-start sample).
    bool openStore(bool mayCreate = false);
    // The directory the row commands work on: the server's with --server, else the file.
    bool openDirectory(bool mayCreate = false);
    int refuseServer() const;
    std::shared_ptr<DirectoryLedger> ledger();
    QString dbPath() const;
    bool expectPositional(int count, const QString &usage);

    CtlArguments m_args;
    std::shared_ptr<SqliteDirectoryStore> m_store;
    std::shared_ptr<ServerConnection> m_connection;
    std::shared_ptr<DirectoryStore> m_directory;
    std::shared_ptr<DirectoryLedger> m_ledger;
    int m_exit = 0;
};
