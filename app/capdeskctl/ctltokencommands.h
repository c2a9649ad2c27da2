#pragma once

#include "app/capdeskctl/ctlarguments.h"

#include <memory>

class SqliteDirectoryStore;

// `capdeskctl token create|list|revoke` (SPEC §7, §11): capability tokens of a local
// directory. create prints the token's value once; nothing can print it again.
class CtlTokenCommands final
{
public:
    CtlTokenCommands(const CtlArguments &args, std::shared_ptr<SqliteDirectoryStore> store);

    // Runs the subcommand named by the first positional argument.
    int run();

private:
    int create();
    int list();
    int revoke();
    // A usage error naming an option the subcommand does not take, or 0.
    int refuseOptionsBeyond(const QStringList &allowed) const;

    CtlArguments m_args;
    std::shared_ptr<SqliteDirectoryStore> m_store;
};
