#include "dispatch/store/defaultlocations.h"

#include <QDir>
#include <QStandardPaths>

namespace DefaultLocations {

QString directoryFile()
{
    // Named explicitly so the path does not depend on the executable's name.
    const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return QDir(data).filePath(QStringLiteral("capdesk/directory.db"));
}

} // namespace DefaultLocations
