#pragma once

#include "app/capdeskctl/ctlarguments.h"
#include "dispatch/receipts/directoryhistory.h"

#include <QList>

#include <memory>

class DirectoryLedger;
class PublicKey;
class SqlDirectoryStore;

// `log [--key K]`, `log --verify [--anchor FILE]` and `log --anchor` (SPEC §8, §11): the
// event log newest first as {"events":[…]}; with --verify the check of the event log and
// the receipt chains (ReceiptLogAudit), exiting 1 with named findings (a FILE that is no
// anchor is one of them, anchor_invalid, with its reason); with --anchor alone
// a signed anchor of where the log ends now, to keep outside the directory.
class CtlLogCommand final
{
public:
    CtlLogCommand(const CtlArguments &args, std::shared_ptr<SqlDirectoryStore> store,
                  std::shared_ptr<DirectoryLedger> ledger);

    int run();

private:
    int list();
    int verify();
    int anchor();

    const CtlArguments &m_args;
    DirectoryHistory m_history;
    std::shared_ptr<DirectoryLedger> m_ledger;
};
