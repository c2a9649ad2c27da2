#pragma once

#include <QString>
#include <QStringList>
#include <QStringView>

// The order in which a JSON text writes an object's keys. QJsonObject sorts its keys, so
// an order that means something (the properties of an input schema) is read from the text.
class JsonKeyOrder final
{
public:
    // The keys of the object that the top-level object's `member` holds, as written; empty
    // when the text is not a JSON object, has no such member or it is not an object.
    static QStringList keysOf(QStringView text, const QString &member);
};
