#include "remote/remoteconfirmation.h"

#include "remote/serverconnection.h"
#include "remote/servererrors.h"

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
    confirmation.reason = confirmation.answer.value(QStringLiteral("reason")).toString();
    // A server, or whatever answers in its place, must not confirm one call with another's receipt.
    const QJsonValue receipt = confirmation.answer.value(QStringLiteral("receipt"));
    const bool answersAnother =
        confirmation.answer.value(QStringLiteral("invocation_id")).toString() != invocationId
        || (receipt.isObject()
            && receipt.toObject().value(QStringLiteral("invocation_id")).toString() != invocationId);
    if (answersAnother) {
        confirmation.confirmed = false;
        confirmation.reason = QStringLiteral("receipt_mismatch");
        confirmation.answer.insert(QStringLiteral("confirmed"), false);
        confirmation.answer.insert(QStringLiteral("reason"), confirmation.reason);
    }
    return confirmation;
}
