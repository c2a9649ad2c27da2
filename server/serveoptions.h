#pragma once

#include <QHostAddress>
#include <QString>

// Where and how `capdeskctl serve` listens. Plain HTTP carries the owner key in a header,
// so the server binds loopback only; reaching it from elsewhere goes through a TLS
// reverse proxy (or an SSH tunnel) that the owner runs in front of it.
struct ServeOptions
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8787;
    // Larger bodies are refused with 413 before any parsing; a row is kilobytes.
    qint64 maxBodyBytes = 1024 * 1024;
    // A dispatch still running after this is cancelled and answered 504, so a stuck
    // upstream cannot hold a client (or a shutdown) forever.
    int dispatchTimeoutMs = 60000;
    // A connection that sends nothing (or half a request) for this long while no answer
    // is owed to it is closed, so idle or trickling clients cannot hold sockets forever.
    int idleTimeoutMs = 30000;

    // "127.0.0.1:8787", "localhost:8787", "[::1]:8787"; refuses a non-loopback host.
    static ServeOptions fromListen(const QString &listen, QString *error);
    // The scheme, host and port that receipts' public URLs start with.
    QString baseUrl() const;
};
