#pragma once

#include "ctlarguments.h"

#include <memory>

class SqliteDirectoryStore;

// `log [--key K] [--verify]` (SPEC §8, §11): the event log newest first as
// {"events":[…]}, or with --verify the hash chain's check, exiting 1 when it is broken.
class CtlLogCommand final
{
public:
    CtlLogCommand(const CtlArguments &args, std::shared_ptr<SqliteDirectoryStore> store);

    int run();

private:
    int list();
    int verify();

    const CtlArguments &m_args;
    std::shared_ptr<SqliteDirectoryStore> m_store;
};
