#pragma once

#include <QString>

namespace ConnectionName {

// QtSql keeps its connections in one process-wide registry by name: every connection
// gets a name no other has, its purpose first, so a connection left open says whose it is.
QString fresh(const QString &purpose);

} // namespace ConnectionName
