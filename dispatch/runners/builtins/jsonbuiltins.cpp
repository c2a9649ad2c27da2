#include "dispatch/runners/builtins/jsonbuiltins.h"

#include "dispatch/json/jsonsyntaxcheck.h"
#include "dispatch/json/jsonvaluetext.h"
#include "dispatch/runners/builtins/builtinregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace {

// A segment indexes an array when it is a non-negative decimal number, and names a member
// otherwise, so "a.0" on {"a":{"0":1}} still finds the member called "0".
std::optional<QJsonValue> step(const QJsonValue &value, const QString &segment)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        const auto it = object.constFind(segment);
        return it == object.constEnd() ? std::nullopt : std::optional<QJsonValue>(*it);
    }
    if (value.isArray()) {
        const bool isIndex = !segment.isEmpty() && std::all_of(segment.cbegin(), segment.cend(), [](QChar c) {
            return c >= u'0' && c <= u'9';
        });
        const QJsonArray array = value.toArray();
        bool fits = false;
        const qsizetype index = isIndex ? segment.toLongLong(&fits) : -1;
        if (!fits || index >= array.size())
            return std::nullopt;
        return array.at(index);
    }
    return std::nullopt;
}

// json: JSON text, path: dotted members and array indexes ("a.b.0.c"); an empty path is
// the whole document. Strings come back without quotes, anything else as compact JSON.
QString jsonGet(const BuiltinCall &call)
{
    const QString json = call.arg(0);
    const JsonSyntaxCheck syntax = JsonSyntaxCheck::check(json);
    if (!syntax.ok)
        return u"ERR: json_get: invalid JSON: "_s + syntax.message;
    // Wrapped, because QJsonDocument parses only objects and arrays and the text may be a
    // bare scalar ("42", "\"x\"").
    const QJsonDocument doc = QJsonDocument::fromJson("[" + json.toUtf8() + "]");

    QJsonValue value = doc.array().at(0);
    const QString path = call.arg(1);
    if (!path.isEmpty()) {
        for (const QString &segment : path.split(u'.')) {
            const std::optional<QJsonValue> next = step(value, segment);
            if (!next)
                return u"ERR: json_get: no value at "_s + path;
            value = *next;
        }
    }
    return JsonValueText::plain(value);
}

} // namespace

void registerJsonBuiltins(BuiltinRegistry &registry)
{
    registry.add(u"json_get"_s, jsonGet,
                 u"json, path: the value at a dotted path with numeric array indexes (a.b.0.c)"_s);
}
