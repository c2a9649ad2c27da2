#pragma once

#include "dispatch/row/row.h"

#include <QSqlQuery>
#include <QString>

#include <functional>

// Whole rows through QSqlQuery: the single-row reads of every engine, and the bulk read of
// the engines without a faster path of their own (PostgreSQL). A statement selects
// columns() first, in that order.
namespace QtSqlRowScan {

// RowSchema::columns(), comma-separated.
QString columns();

// The row at `query`'s current record.
Row rowAt(const QSqlQuery &query);

// Reads `query` (executed) to its end or until `each` returns false; false when it ended
// on an error, which a corrupt page gives midway, so a partial read never passes for the
// whole.
bool read(QSqlQuery &query, const std::function<bool(Row &&row)> &each);

} // namespace QtSqlRowScan
