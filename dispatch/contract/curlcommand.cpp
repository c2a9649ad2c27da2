#include "dispatch/contract/curlcommand.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

QString CurlCommand::quote(const QString &text)
{
    QString quoted = text;
    quoted.replace(u'\'', QStringLiteral("'\\''"));
    return u'\'' + quoted + u'\'';
}

QString CurlCommand::fromShape(const QJsonObject &request)
{
    const QString method = request.value(QStringLiteral("method")).toString();
    const QString url = request.value(QStringLiteral("url")).toString();
    if (method.isEmpty() || url.isEmpty())
        return {};

    QStringList parts{QStringLiteral("curl -sS")};
    // HEAD needs -I: with -X HEAD curl would wait for a body that never comes.
    if (method == QLatin1String("HEAD"))
        parts << QStringLiteral("-I");
    else
        parts << QStringLiteral("-X") << method;
    parts << quote(url);
    const QJsonObject headers = request.value(QStringLiteral("headers")).toObject();
    for (auto it = headers.constBegin(); it != headers.constEnd(); ++it)
        parts << QStringLiteral("-H") << quote(it.key() + QStringLiteral(": ") + it.value().toString());

    const QJsonValue body = request.value(QStringLiteral("body"));
    QString bodyText;
    if (body.isString())
        bodyText = body.toString();
    else if (body.isObject())
        bodyText = QString::fromUtf8(QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact));
    else if (body.isArray())
        bodyText = QString::fromUtf8(QJsonDocument(body.toArray()).toJson(QJsonDocument::Compact));
    // --data-raw, not -d: a body starting with '@' is text here, not a file to read.
    if (!body.isNull() && !body.isUndefined())
        parts << QStringLiteral("--data-raw") << quote(bodyText);
    return parts.join(u' ');
}
