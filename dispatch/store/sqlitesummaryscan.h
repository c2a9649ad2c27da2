#pragma once

#include "dispatch/row/rowsummary.h"

#include <functional>

struct sqlite3_stmt;

// The bulk summary read shared by the store's scan and the change feed: a statement
// stepped straight through SQLite's API, because QSqlQuery turns every cell into a
// QVariant, which alone costs ~200 ms over 100,000 rows.
namespace SqliteSummaryScan {

// The columns a summary statement selects first, in the order read() takes them.
inline constexpr char kColumns[] = "key, type, category, target, updated_at, enabled, sensitive";

// Steps `statement` to its end, one view per row; returns the last sqlite3_step() code
// (SQLITE_DONE when every row was read).
int read(sqlite3_stmt *statement, const std::function<void(const RowSummaryView &)> &sink);

} // namespace SqliteSummaryScan
