#pragma once

#include "dispatch/row/row.h"

#include <functional>

struct sqlite3_stmt;

// The bulk read of whole rows on SQLite (lint-all, the registry total): a statement stepped
// straight through SQLite's API. Through QSqlQuery, SQLite converts every text cell to
// UTF-16 in a loop a byte at a time and QtSql wraps it in a QVariant; for 100,000 rows that
// was three quarters of the read.
namespace SqliteRowScan {

// Steps `statement`, which selects QtSqlRowScan::columns() in their order, to its end or
// until `each` returns false; returns the last sqlite3_step() code: SQLITE_DONE when every
// row was read, SQLITE_ROW when `each` stopped it.
int read(sqlite3_stmt *statement, const std::function<bool(Row &&row)> &each);

} // namespace SqliteRowScan
