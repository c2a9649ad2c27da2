#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

// The MCP vocabulary both transports (McpSession's JSON-RPC, /mcp's HTTP checks) speak:
// the versions served, the reserved _meta keys and the error codes.
namespace McpWire {

inline const QString kStatelessVersion = QStringLiteral("2026-07-28");
// The handshake (initialize) era, newest first.
inline const QStringList kHandshakeVersions = {QStringLiteral("2025-11-25"), QStringLiteral("2025-06-18"),
                                               QStringLiteral("2025-03-26")};

inline const QString kVersionKey = QStringLiteral("io.modelcontextprotocol/protocolVersion");
inline const QString kClientInfoKey = QStringLiteral("io.modelcontextprotocol/clientInfo");
inline const QString kSubscriptionKey = QStringLiteral("io.modelcontextprotocol/subscriptionId");

// JSON-RPC 2.0's codes, and MCP's.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kServerBusy = -32000;
inline constexpr int kCallTimedOut = -32001;
inline constexpr int kHeaderMismatch = -32020;
inline constexpr int kUnsupportedVersion = -32022;

inline QStringList servedVersions()
{
    return QStringList{kStatelessVersion} + kHandshakeVersions;
}

// The version a 2026-era request names in params._meta; empty for a 2025-era one.
inline QString metaVersionOf(const QJsonObject &message)
{
    return message.value(QStringLiteral("params"))
        .toObject()
        .value(QStringLiteral("_meta"))
        .toObject()
        .value(kVersionKey)
        .toString();
}

// A client's method name as a log line may show it: printable ASCII, at most 64 characters,
// so a hostile name can neither forge log lines nor flood them.
inline QString loggable(const QString &method)
{
    QString shown;
    for (const QChar c : method.left(64))
        shown.append(c.unicode() >= 0x20 && c.unicode() < 0x7f ? c : QChar(u'?'));
    return shown;
}

} // namespace McpWire
