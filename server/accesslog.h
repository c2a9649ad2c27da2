#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QUrl>

// One line per request on stderr: method, path, status, milliseconds, the peer's address.
// Never a body or a header, and query values only for parameters known to carry no
// secret, so the log can be shared when reporting a problem. A request refused before its
// method or path was read whole logs what arrived of them, or "-".
class AccessLog final
{
public:
    static void write(const QByteArray &method, const QUrl &url, int status, qint64 ms,
                      const QHostAddress &peer);
    // The path with each query value not on the allow-list replaced by "…".
    static QString redactedTarget(const QUrl &url);
};
