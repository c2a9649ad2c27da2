#pragma once

#include "app/capdeskctl/ctlarguments.h"

#include <memory>

class DirectoryLedger;
struct CapabilityToken;

// `capdeskctl token create|list|revoke` (SPEC §7, §11): capability tokens of a local
// directory. create prints the token's value once; nothing can print it again, and it
// refuses a key or category no row has unless given --allow-unknown. The subcommand is the
// first positional argument; the command table picks the function.
class CtlTokenCommands final
{
public:
    CtlTokenCommands(const CtlArguments &args, std::shared_ptr<DirectoryLedger> ledger);

    int create();
    int list();
    int revoke();

private:
    // Ok, or the exit code after saying which of the token's names no row has.
    int refuseUnknownNames(const CapabilityToken &spec) const;

    CtlArguments m_args;
    std::shared_ptr<DirectoryLedger> m_ledger;
};
