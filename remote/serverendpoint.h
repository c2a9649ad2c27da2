#pragma once

#include <QString>
#include <QUrl>

// Where a remote directory lives and the owner key that may change it. The key is sent
// only in the x-terminal-key header: never in a URL, a log line, a message or settings.
struct ServerEndpoint
{
    QUrl baseUrl; // http or https, host, port (and a path prefix, if the server sits under one)
    QString ownerKey;
    int timeoutMs = 10000; // per request, from sending it to its last byte
    // For https: a PEM file of CA certificates trusted beside the system roots (a private CA,
    // or a self-signed server's own certificate). Not a secret.
    QString caFile = {};
    // The largest answer body read; a longer one is refused by name, never cut short and
    // misread. A listing of summaries is about 200 bytes a row; the plain listing of every
    // full row, which lint-all reads, about 800 (80 MiB for 100,000 rows).
    qint64 maxAnswerBytes = 512 * 1024 * 1024;
    // How often an open directory polls the server's change feed; 0: as the server's kind
    // suggests (RemoteDirectoryStore::changePollIntervalMs).
    int changePollIntervalMs = 0;
};
