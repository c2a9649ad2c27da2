#pragma once

#include "dispatch/row/row.h"

#include <QJsonObject>
#include <QStringList>

// What a PATCH must carry to turn one row into another over SPEC §10: only the
// allow-listed fields that differ. `runner` and `sensitive` are outside the allow-list,
// so a change to them cannot be sent; lockedChanges() names them for the refusal and the
// editor's read-only reason.
namespace RowPatch {

QJsonObject changedFields(const Row &current, const Row &edited);
// The changed fields a server will not accept ("runner", "sensitive"; also "key").
QStringList lockedChanges(const Row &current, const Row &edited);
// Why those fields are read-only against a server, in the words the GUI shows.
QString lockedReason();

} // namespace RowPatch
