#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <utility>

// One request to a server, relative to its base URL.
struct ServerRequest
{
    // Whom the request speaks for: the owner (x-terminal-key) or nobody (keyless reads such
    // as confirm, and capability-token calls, which a server refuses beside a wrong key).
    enum class Credentials { OwnerKey, None };

    QByteArray method = QByteArrayLiteral("GET");
    QString pathAndQuery; // "/api/directory?q=x", already percent-encoded where it must be
    QByteArray body = {};
    QList<std::pair<QByteArray, QByteArray>> headers = {};
    Credentials credentials = Credentials::OwnerKey;
};
