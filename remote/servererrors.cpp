#include "remote/servererrors.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace ServerErrors {

QString messageOf(const ServerResponse &response)
{
    const QJsonObject object = QJsonDocument::fromJson(response.body).object();
    const QString error = object.value(QStringLiteral("error")).toString();
    const QString message = object.value(QStringLiteral("message")).toString();
    if (!error.isEmpty() && !message.isEmpty() && message != error)
        return error + QStringLiteral(": ") + message;
    if (!error.isEmpty() || !message.isEmpty())
        return error.isEmpty() ? message : error;
    // Not our JSON (a proxy's page, say): the status says enough, the body may be HTML.
    return QStringLiteral("HTTP %1").arg(response.status);
}

StoreError fromResponse(const ServerResponse &response, const QString &location)
{
    using Kind = StoreError::Kind;
    if (!response.reached())
        return StoreError::make(
            Kind::Unreachable,
            QStringLiteral("server %1 did not answer: %2").arg(location, response.failure));
    if (response.bodyTooLarge)
        return StoreError::make(Kind::Io, QStringLiteral("server %1 sent too much for %2 %3: %4")
                                              .arg(location, QString::fromLatin1(response.method),
                                                   response.path, response.failure));
    const int status = response.status;
    if (status >= 200 && status < 300)
        return StoreError::none();
    const QString words = messageOf(response);
    switch (status) {
    case 401:
        return StoreError::make(Kind::Unauthorized, QStringLiteral("the server refused the owner key"));
    case 404:
        return StoreError::make(Kind::NotFound, words);
    case 409:
        return StoreError::make(Kind::AlreadyExists, words);
    case 412:
        return StoreError::make(Kind::Conflict, words);
    case 400:
    case 413:
        return StoreError::make(Kind::Invalid, words);
    case 422: {
        const QJsonObject object = QJsonDocument::fromJson(response.body).object();
        const QString message = object.value(QStringLiteral("message")).toString();
        return StoreError::make(Kind::Invalid, message.isEmpty() ? words : message,
                                object.value(QStringLiteral("findings")).toArray());
    }
    default:
        break;
    }
    return StoreError::make(Kind::Io,
                            QStringLiteral("server %1 answered %2: %3").arg(location).arg(status).arg(words));
}

} // namespace ServerErrors
