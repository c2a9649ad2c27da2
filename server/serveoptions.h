#pragma once

#include "dispatch/mcp/mcpoptions.h"
#include "server/connectionlimits.h"

#include <QHostAddress>
#include <QSslConfiguration>
#include <QString>
#include <QStringList>

#include <optional>

// Where and how `capdeskctl serve` listens. Plain HTTP carries the owner key in a header,
// so without TLS the server binds loopback only, and reaching it from elsewhere goes
// through a TLS reverse proxy (or an SSH tunnel) in front of it. With --tls-cert and
// --tls-key it speaks HTTPS itself and may listen on any address.
struct ServeOptions
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8787;
    // A dispatch still running after this is cancelled and answered 504, so a stuck
    // upstream cannot hold a client (or a shutdown) forever.
    int dispatchTimeoutMs = 60000;
    // What each connection, and all of them together, may cost the server.
    ConnectionLimits limits;
    // The certificate and key served (ServeTls::load); none: plain HTTP.
    std::optional<QSslConfiguration> tls = std::nullopt;
    // /mcp: the projection its tools follow, and the browser origins (beyond this server's
    // own loopback one) that may use it.
    McpOptions::Projection mcpProjection = McpOptions::Projection::Rows;
    QStringList allowedOrigins;
    // Name Capdesk's version in a Server header and in MCP's serverInfo. Off by default:
    // a version tells an attacker which holes to try.
    bool announceVersion = false;

    // "127.0.0.1:8787", "localhost:8787", "[::1]:8787", "127.0.0.1:0" (any free port);
    // refuses a non-loopback host unless `tls` is given.
    static ServeOptions fromListen(const QString &listen, QString *error,
                                   std::optional<QSslConfiguration> tls = std::nullopt);
    // The scheme, host and port that receipts' public URLs start with (port 0 until the
    // server has bound one).
    QString baseUrl() const;
};
