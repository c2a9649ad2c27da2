#include "remote/remotedirectory.h"

#include "remote/remotedirectorystore.h"
#include "remote/remotedispatcher.h"

OpenDirectory RemoteDirectory::over(std::shared_ptr<ServerConnection> connection)
{
    OpenDirectory directory;
    directory.store = std::make_shared<RemoteDirectoryStore>(connection);
    directory.dispatcher = std::make_shared<RemoteDispatcher>(std::move(connection));
    const QString reason =
        tr("Read-only on a server: the server's PATCH allow-list (SPEC §10) does not include "
           "runner or sensitive; change it on the server's own file.");
    directory.readOnlyColumns = {{QStringLiteral("runner"), reason}, {QStringLiteral("sensitive"), reason}};
    return directory;
}
