#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <utility>

// What HttpTransport got for one request: the answer, or in plain words why there is none.
struct TransportResponse
{
    enum class Failure {
        None,
        TimedOut, // the deadline passed before the last byte
        Cancelled, // the request's cancel flag was set
        Closed, // the transport was shut down with the request running
        BodyTooLarge, // OverLimit::Fail and the body passed maxBodyBytes; status is kept, body empty
        Certificate, // the server's certificate was refused (never ignored)
        CaFile, // the request's CA file cannot be used; nothing was sent
        Network, // refused, reset, host not found, TLS handshake, a body cut short, …
    };

    int status = 0; // 0 when no HTTP answer arrived
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;
    bool truncated = false; // OverLimit::Truncate and the body was cut at maxBodyBytes
    Failure failure = Failure::None;
    // Set with every failure: "connection refused", "timed out after 300 ms",
    // "certificate for 127.0.0.1 is not trusted: …"; never a header or body byte.
    QString error;
    qint64 elapsedMs = 0;

    bool ok() const { return failure == Failure::None; }
};
