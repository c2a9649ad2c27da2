#include "dispatch/json/jsonvaluetext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

QString JsonValueText::compact(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    // QJsonDocument writes only objects and arrays, so a scalar goes out as a one-element
    // array with the brackets taken off.
    const QString wrapped =
        QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact));
    return wrapped.mid(1, wrapped.size() - 2);
}

QString JsonValueText::plain(const QJsonValue &value)
{
    return value.isString() ? value.toString() : compact(value);
}
