#pragma once

#include "dispatch/row/rowsummary.h"

#include <QSqlQuery>

#include <functional>

// The bulk summary read of the engines without a faster path of their own (PostgreSQL):
// a forward-only QSqlQuery whose statement selects kColumns first.
namespace QtSqlSummaryScan {

inline constexpr char kColumns[] = "key, type, category, target, updated_at, enabled, sensitive";

// Reads `query` (executed) to its end, one view per row; false when it ended on an error.
bool read(QSqlQuery &query, const std::function<void(const RowSummaryView &)> &sink);

} // namespace QtSqlSummaryScan
