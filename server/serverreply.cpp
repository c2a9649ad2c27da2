#include "server/serverreply.h"

#include <QJsonDocument>

ServerReply ServerReply::json(int status, const QJsonObject &object)
{
    ServerReply reply;
    reply.status = status;
    reply.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    return reply;
}

ServerReply ServerReply::error(int status, const QString &message)
{
    return json(status, {{QStringLiteral("error"), message}});
}

std::optional<ServerReply> ServerReply::readObject(const QByteArray &body, QJsonObject *object)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return error(400, QStringLiteral("invalid JSON at offset %1: %2")
                              .arg(parseError.offset)
                              .arg(parseError.errorString()));
    if (!document.isObject())
        return error(400, QStringLiteral("expected one JSON object"));
    *object = document.object();
    return std::nullopt;
}
