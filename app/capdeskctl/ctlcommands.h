#pragma once

#include "ctlarguments.h"
#include "ctllintcommands.h"
#include "ctlreceiptcommands.h"

#include <memory>

class DirectoryLedger;
class SqliteDirectoryStore;

// The local commands of SPEC §11, each a thin call into the engine.
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
    std::shared_ptr<DirectoryLedger> ledger();
    QString dbPath() const;
    bool expectPositional(int count, const QString &usage);

    CtlArguments m_args;
    std::shared_ptr<SqliteDirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    int m_exit = 0;
};
