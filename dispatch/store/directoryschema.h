#pragma once

#include "dispatch/core/storeerror.h"

#include <QSqlDatabase>
#include <QString>

#include <functional>

// Opening a database as a directory, the same on every engine: one with tables but no
// `directory` table (or one without key/type) belongs to something else and is refused; one
// with no tables at all is a new directory; one newer than this build is refused; the rest
// is migrated. `beforeMigrating` runs only when an existing directory has migrations
// pending (SQLite checks the file's integrity there).
namespace DirectorySchema {

StoreError prepare(QSqlDatabase &db, const QString &location,
                   const std::function<StoreError()> &beforeMigrating = {});

// Whether the database has no tables at all: what prepare() would make a new directory of.
StoreResult<bool> holdsNoTables(QSqlDatabase &db, const QString &location);

} // namespace DirectorySchema
