#pragma once

#include "dispatch/directory/opendirectory.h"

#include <QCoreApplication>

#include <memory>

class ServerConnection;

// A server's directory as the capabilities it offers: the store and a dispatcher that
// runs calls on the server, with `runner` and `sensitive` read-only (SPEC §10's PATCH
// allow-list). No ledger, history or tokens: the server keeps them to itself.
class RemoteDirectory final
{
    Q_DECLARE_TR_FUNCTIONS(RemoteDirectory)

public:
    static OpenDirectory over(std::shared_ptr<ServerConnection> connection);
};
