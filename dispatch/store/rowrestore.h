#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/row/row.h"
#include "dispatch/store/logevent.h"

#include <QList>

// Putting a saved version of a row back (History's "Restore version #N", `capdeskctl
// restore`): the version is the row as one of its event-log entries left it, written over
// the current row with the current row's timestamps, and logged as a `restore` naming that
// entry (RowChange::restore).
namespace RowRestore {

// The row event `seq` of `key` left, from `events` (the key's, any order). NotFound when
// there is no such event; Invalid when it left no row (a delete) or its row cannot be read.
StoreResult<Row> version(const QList<LogEvent> &events, const QString &key, qint64 seq);
// The same, of one event.
StoreResult<Row> versionOf(const LogEvent &event);
// `version`'s values over `current`: its timestamps stay the current row's, so the write
// is checked against the row as it is now.
Row onto(const Row &current, const Row &version);

} // namespace RowRestore
