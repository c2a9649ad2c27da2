#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

// One HTTP answer before it is written: the routes build these, DirectoryServer writes
// them (and drops the body for HEAD), so every answer goes through one place that
// sets Content-Length and logs.
struct ServerReply
{
    int status = 200;
    QByteArray contentType = QByteArrayLiteral("application/json");
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;

    static ServerReply json(int status, const QJsonObject &object);
    // {"error": message}, the shape SPEC §10 uses for every refusal.
    static ServerReply error(int status, const QString &message);
    // Reads a request body that must be one JSON object; the 400 to answer when it is not.
    static std::optional<ServerReply> readObject(const QByteArray &body, QJsonObject *object);
};
