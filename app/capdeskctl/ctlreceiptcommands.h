#pragma once

#include "app/capdeskctl/ctlarguments.h"

#include <memory>

class DirectoryLedger;

// `receipts [--key K] [--limit N]`, `confirm INV_ID` and
// `verify-receipt FILE [--public-key PEM]` (SPEC §6, §11).
class CtlReceiptCommands final
{
public:
    CtlReceiptCommands(const CtlArguments &args, std::shared_ptr<DirectoryLedger> ledger);

    int receipts();
    int confirm();
    int verifyReceipt();

private:
    const CtlArguments &m_args;
    std::shared_ptr<DirectoryLedger> m_ledger;
};
