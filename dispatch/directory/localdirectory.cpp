#include "dispatch/directory/localdirectory.h"

#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/store/sqldirectorystore.h"

StoreResult<OpenDirectory> LocalDirectory::open(const QString &path,
                                                std::shared_ptr<const MemorySecrets> memory,
                                                const DatabasePasswordLookup &passwords)
{
    StoreResult<std::shared_ptr<SqlDirectoryStore>> store = SqlDirectoryStore::open(path, passwords);
    if (!store.ok())
        return store.error();
    return over(std::move(store.value()), std::move(memory));
}

OpenDirectory LocalDirectory::over(std::shared_ptr<SqlDirectoryStore> store,
                                   std::shared_ptr<const MemorySecrets> memory)
{
    OpenDirectory directory;
    directory.ledger = std::make_shared<DirectoryLedger>(store);
    directory.history = std::make_shared<DirectoryHistory>(store);
    // The tokens live in the ledger, which the pointer keeps alive.
    directory.tokens = std::shared_ptr<CapabilityTokenStore>(directory.ledger, &directory.ledger->tokens());
    directory.dispatcher = std::make_shared<StandardDispatcher>(
        store, directory.ledger, AgentEndpoints::defaults(), DispatchLimits{}, std::move(memory));
    directory.store = std::move(store);
    directory.builtinsAreLocal = true;
    return directory;
}
