#pragma once

#include "app/capdeskctl/ctlarguments.h"
#include "dispatch/core/storeerror.h"

#include <memory>

class ServerConnection;

// What `--server URL` changes (SPEC §11): the connection to a server speaking SPEC §10,
// with the owner key from CAPDESK_TERMINAL_KEY (never a flag, so it stays out of shell
// history and process lists) and, for https, the CA file of --ca-file or CAPDESK_CA_FILE
// trusted beside the system roots; and the two commands that talk to the server directly
// instead of through the store: `invoke` prints the server's dispatch answer as it came,
// `confirm` its keyless confirm answer. The row commands go through RemoteDirectoryStore.
class CtlServerCommands final
{
public:
    // The connection for --server's URL, or why it cannot be made (a usage error).
    static StoreResult<std::shared_ptr<ServerConnection>> connect(const CtlArguments &args);

    CtlServerCommands(const CtlArguments &args, std::shared_ptr<ServerConnection> connection);

    int invoke();
    int confirm();

private:
    const CtlArguments &m_args;
    std::shared_ptr<ServerConnection> m_connection;
};
