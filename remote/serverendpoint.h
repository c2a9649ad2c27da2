#pragma once

#include <QString>
#include <QUrl>

// Where a remote directory lives and the owner key that may change it. The key is sent
// only in the x-terminal-key header: never in a URL, a log line, a message or settings.
struct ServerEndpoint
{
    QUrl baseUrl; // scheme, host, port (and a path prefix, if the server sits under one)
    QString ownerKey;
    int timeoutMs = 10000; // per request, from sending it to its last byte
};
