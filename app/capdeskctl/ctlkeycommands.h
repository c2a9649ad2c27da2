#pragma once

#include "app/capdeskctl/ctlarguments.h"

#include <memory>

class DirectoryLedger;

// The receipt-signing key commands of capdeskctl (SPEC §6): what a verifier needs to
// check receipts offline.
class CtlKeyCommands final
{
public:
    CtlKeyCommands(const CtlArguments &args, std::shared_ptr<DirectoryLedger> ledger);

    // Prints the public key that signs this directory's receipts (the newest one whose
    // private half is reachable) as PEM, to stdout or to --out FILE, making the key pair
    // first if the directory has none.
    int publicKey();
    // `signing-key new`: a new key signs from now on (DirectoryLedger::startNewSigningKey);
    // prints its id, the keys it follows, and whether the key held here vouched for it.
    int startNew();

private:
    CtlArguments m_args;
    std::shared_ptr<DirectoryLedger> m_ledger;
};
