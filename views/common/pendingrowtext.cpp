#include "views/common/pendingrowtext.h"

#include "models/directorydocument.h"

#include <QCoreApplication>

namespace PendingRowText {

QString of(const DirectoryDocument *document, const QString &key)
{
    if (!document || key.isEmpty())
        return {};
    if (document->isLoading(key))
        return QCoreApplication::translate("PendingRowText", "Loading %1 from the server…").arg(key);
    if (const QString error = document->loadError(key); !error.isEmpty())
        return QCoreApplication::translate("PendingRowText", "%1 could not be read: %2").arg(key, error);
    return {};
}

} // namespace PendingRowText
