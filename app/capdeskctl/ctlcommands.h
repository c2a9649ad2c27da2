#pragma once

#include "app/capdeskctl/ctlarguments.h"
#include "app/capdeskctl/ctlcommand.h"
#include "app/capdeskctl/ctllintcommands.h"
#include "app/capdeskctl/ctlreceiptcommands.h"
#include "app/capdeskctl/ctltokencommands.h"

#include <memory>

class DirectoryLedger;
class DirectoryStore;
class ServerConnection;
class SqlDirectoryStore;

// The commands of SPEC §11, each a thin call into the engine, dispatched through the
// command table (CtlCommandTable), which also says which options each takes and which
// refuse --server. With `--server URL` the row commands run against the server's
// directory through the same DirectoryStore interface, and invoke and confirm ask the
// server.
class CtlCommands final
{
public:
    explicit CtlCommands(CtlArguments arguments);
    int run();

    // The handlers the table names.
    int init();
    int importFile();
    int exportRows();
    int get();
    int put();
    int patch();
    int remove();
    int invoke();
    int flowPlan();
    int lint();
    int contract();
    int mcpTools();
    int mcp();
    int serve();
    int receipts();
    int confirm();
    int verifyReceipt();
    int publicKey();
    int signingKeyNew();
    int log();
    int migrate();
    int restore();
    int tokenCreate();
    int tokenList();
    int tokenRevoke();
    int help();
    int completion();

private:
    int runCommand();
    // After CtlOutput::usage(): the usage of the command given and where its help is, or
    // the whole usage when no command was recognised.
    void printUsage() const;
    // The options the command does not take, an empty value where none is meant, and
    // --ca-file without --server: the usage error, or Ok.
    int refuseOptions(const CtlCommand &command) const;
    // mcp --server with a token (the bridge serves with the owner key): the usage error, or Ok.
    int refuseTokenToBridge() const;
    // --token-file read into --token; a usage error when it cannot be.
    int readTokenFile();
    int receiptCommand(int (CtlReceiptCommands::*command)());
    int lintCommand(int (CtlLintCommands::*command)());
    int tokenCommand(int (CtlTokenCommands::*command)());

    // Only init and import may create the file; a typo in --db must not leave an empty
    // directory behind (nor pre-empt the GUI's first-start sample).
    bool openStore(bool mayCreate = false);
    // The directory the row commands work on: the server's with --server, else the file.
    bool openDirectory(bool mayCreate = false);
    std::shared_ptr<DirectoryLedger> ledger();
    QString dbPath() const;
    // The positional count the command's synopsis wants, else its usage line as the error.
    bool expectPositional(int count);
    QString wrongCount(int min, int max) const;
    static bool applies(const CtlCommand &command, const QString &option);

    CtlArguments m_args;
    const CtlCommand *m_command = nullptr;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::shared_ptr<ServerConnection> m_connection;
    std::shared_ptr<DirectoryStore> m_directory;
    std::shared_ptr<DirectoryLedger> m_ledger;
    int m_exit = 0;
};
