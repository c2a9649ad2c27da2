#include "remoteconfirmation.h"

#include "serverconnection.h"
#include "servererrors.h"

#include <QJsonDocument>
#include <QUrl>

StoreResult<RemoteConfirmation> RemoteConfirmation::fetch(const ServerConnection &connection,
                                                          const QString &invocationId)
{
    ServerRequest request;
    request.pathAndQuery =
        QStringLiteral("/api/dispatch?confirm=") + QString::fromLatin1(QUrl::toPercentEncoding(invocationId));
    request.credentials = ServerRequest::Credentials::None;
    const ServerResponse response = connection.send(request);
    const StoreError error = ServerErrors::fromResponse(response, connection.location());
    if (error.isError())
        return error;
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(response.body, &parse);
    if (!document.isObject())
        return StoreError::make(
            StoreError::Kind::Io,
            QStringLiteral("server %1 answered confirm with no JSON object").arg(connection.location()));
    RemoteConfirmation confirmation;
    confirmation.answer = document.object();
    confirmation.confirmed = confirmation.answer.value(QStringLiteral("confirmed")).toBool();
    confirmation.status = confirmation.answer.value(QStringLiteral("status")).toString();
    return confirmation;
}
