#pragma once

#include <QByteArray>
#include <QUrl>

// One line per request on stderr: method, path, status, milliseconds. Never a body or a
// header, and query values only for parameters known to carry no secret, so the log can
// be shared when reporting a problem.
class AccessLog final
{
public:
    static void write(const QByteArray &method, const QUrl &url, int status, qint64 ms);
    // The path with each query value not on the allow-list replaced by "…".
    static QString redactedTarget(const QUrl &url);
};
