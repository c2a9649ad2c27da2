#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/directory/opendirectory.h"

#include <memory>

class SqliteDirectoryStore;

// Opens a directory file with every capability a local file has: the store, a
// StandardDispatcher, the ledger, the history and the tokens.
class LocalDirectory final
{
public:
    static StoreResult<OpenDirectory> open(const QString &path);
    // The capabilities over a store opened already (tests, and callers that set it up).
    static OpenDirectory over(std::shared_ptr<SqliteDirectoryStore> store);
};
