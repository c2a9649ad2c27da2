#pragma once

#include "server/serverreply.h"

// What leaves the server for a caller without the owner key (a token holder, or anyone
// reading): a 500's text is a server fault's, which names the server's files and tables,
// so it goes to the log under an id (FaultNotice) and the answer carries the id instead.
// The owner is told everything.
class FaultScreen final
{
public:
    static ServerReply screened(ServerReply reply);
};
