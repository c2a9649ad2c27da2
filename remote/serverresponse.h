#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <utility>

// One answer of a server, or the plain-words reason there was none.
struct ServerResponse
{
    int status = 0; // 0: no HTTP answer (refused, timed out, DNS, TLS…)
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;
    // Plain words when status == 0, e.g. "connection refused", "timed out after 10000 ms",
    // "certificate for 127.0.0.1 is not trusted: …"; or when bodyTooLarge.
    QString failure;
    // The server answered `status` with a body over ServerEndpoint::maxAnswerBytes, which was
    // not read: `body` is empty.
    bool bodyTooLarge = false;
    qint64 elapsedMs = 0;
    // What was asked, for the status bar and logs: "GET /api/directory" (never the key).
    QByteArray method;
    QString path;

    bool reached() const { return status != 0; }
    // The named header's value (case-insensitive name), empty when absent.
    QByteArray header(const QByteArray &name) const
    {
        for (const auto &[key, value] : headers) {
            if (key.compare(name, Qt::CaseInsensitive) == 0)
                return value;
        }
        return {};
    }
};
