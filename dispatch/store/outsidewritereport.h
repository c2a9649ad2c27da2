#pragma once

#include <QSqlDatabase>
#include <QString>

// Row writes that bypassed the event log (plain SQL on the table) are counted by the
// database's triggers; the change feed that first sees new ones reports them as one
// DIRECTORY_OUTSIDE_WRITE event, so every reader then sees a point in the log where a
// delta cannot be told. Shared by the feeds of every engine.
namespace OutsideWriteReport {

inline const QString kKind = QStringLiteral("DIRECTORY_OUTSIDE_WRITE");

// Appends that event for the writes counted and not yet reported, on `db` (a connection
// that may write), under the write lock. Failing leaves them unreported: the next poll
// tries again, and until then polls answer complete.
void append(QSqlDatabase &db);

} // namespace OutsideWriteReport
