#pragma once

#include <QHostAddress>
#include <QSslConfiguration>
#include <QString>

#include <optional>

// Where and how `capdeskctl serve` listens. Plain HTTP carries the owner key in a header,
// so without TLS the server binds loopback only, and reaching it from elsewhere goes
// through a TLS reverse proxy (or an SSH tunnel) in front of it. With --tls-cert and
// --tls-key it speaks HTTPS itself and may listen on any address.
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
    // The certificate and key served (ServeTls::load); none: plain HTTP.
    std::optional<QSslConfiguration> tls = std::nullopt;

    // "127.0.0.1:8787", "localhost:8787", "[::1]:8787"; refuses a non-loopback host unless
    // `tls` is given.
    static ServeOptions fromListen(const QString &listen, QString *error,
                                   std::optional<QSslConfiguration> tls = std::nullopt);
    // The scheme, host and port that receipts' public URLs start with.
    QString baseUrl() const;
};
