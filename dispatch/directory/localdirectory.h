#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/directory/opendirectory.h"
#include "dispatch/store/directoryengine.h"

#include <memory>

class MemorySecrets;
class SqlDirectoryStore;

// Opens a directory file with every capability a local file has: the store, a
// StandardDispatcher, the ledger, the history and the tokens. Its calls take secrets from
// the environment, then `memory` when given (the app's values kept for want of a
// keychain), then the keychain. `path` may also be a postgresql:// URL, whose password
// `passwords` may know.
class LocalDirectory final
{
public:
    static StoreResult<OpenDirectory> open(const QString &path,
                                           std::shared_ptr<const MemorySecrets> memory = {},
                                           const DatabasePasswordLookup &passwords = {});
    // The capabilities over a store opened already (tests, and callers that set it up).
    static OpenDirectory over(std::shared_ptr<SqlDirectoryStore> store,
                              std::shared_ptr<const MemorySecrets> memory = {});
};
