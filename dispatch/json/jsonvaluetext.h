#pragma once

#include <QJsonValue>
#include <QString>

// A JSON value as one text argument, the way the fn runner hands payload elements to a
// builtin and json_get hands back what it found.
namespace JsonValueText {

// Compact JSON of any value, scalars included ("1.5", "true", "null", "\"x\"").
QString compact(const QJsonValue &value);
// A string's own text without quotes; any other value as compact JSON.
QString plain(const QJsonValue &value);

} // namespace JsonValueText
