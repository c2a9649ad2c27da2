#pragma once

#include "app/capdeskctl/ctlarguments.h"
#include "dispatch/core/storeerror.h"

#include <QString>

#include <memory>

class SqlDirectoryStore;

// `migrate --from FILE|URL --to FILE|URL`: moves a whole directory to a new database
// (DirectoryCopy), from a SQLite file to PostgreSQL or back. The source's history must
// verify first, and the copy's must verify after, so a move never carries tampering along
// unnoticed nor breaks a chain. A new file that the copy could not fill is removed again.
class CtlMigrateCommand final
{
public:
    explicit CtlMigrateCommand(const CtlArguments &args) : m_args(args) {}

    int run();

private:
    StoreResult<std::shared_ptr<SqlDirectoryStore>> openSource(const QString &location) const;
    StoreResult<std::shared_ptr<SqlDirectoryStore>> openDestination(const QString &location,
                                                                    bool *created) const;

    const CtlArguments &m_args;
};
