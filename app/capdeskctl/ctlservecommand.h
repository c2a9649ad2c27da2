#pragma once

#include "app/capdeskctl/ctlarguments.h"
#include "server/serveoptions.h"

// `capdeskctl serve --db FILE [--listen 127.0.0.1:PORT] [--generate-key]
// [--tls-cert FILE --tls-key FILE]`: SPEC §10's server over a local directory until
// SIGTERM or SIGINT, then exit 0 once the running dispatches have been answered. The owner
// key comes from CAPDESK_TERMINAL_KEY; with --generate-key a new one is made and printed
// once, and is never stored. With a certificate and its key it speaks HTTPS (and may then
// listen beyond loopback); a file that cannot serve is a usage error (exit 2).
class CtlServeCommand final
{
public:
    explicit CtlServeCommand(const CtlArguments &args);
    int run();

private:
    // The limit options (--idle-timeout, --max-connections…) into `options`, each checked
    // against its range; the usage error, or empty.
    QString readLimits(ServeOptions *options) const;
    // --mcp-tools and --allow-origin (comma-separated origins) for /mcp; the usage error, or empty.
    QString readMcp(ServeOptions *options) const;
    // The owner key from exactly one source; a usage error when none or several are given.
    QString readOwnerKey(QByteArray *key) const;

    const CtlArguments &m_args;
};
