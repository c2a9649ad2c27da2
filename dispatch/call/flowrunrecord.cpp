#include "dispatch/call/flowrunrecord.h"

#include "dispatch/call/invocationids.h"

#include <QDateTime>
#include <QStringList>

using namespace Qt::StringLiterals;

QJsonObject FlowRunRecord::toJson() const
{
    return {{u"key"_s, key},
            {u"body"_s, body},
            {u"output"_s, output},
            {u"invocation_id"_s, invocationId},
            {u"trace"_s, trace},
            {u"started_at"_s, startedAt},
            {u"duration_ms"_s, activeMs}};
}

std::optional<FlowRunRecord> FlowRunRecord::fromJson(const QJsonObject &json, QString *error)
{
    static const QStringList members{u"key"_s,   u"body"_s,       u"output"_s,     u"invocation_id"_s,
                                     u"trace"_s, u"started_at"_s, u"duration_ms"_s};
    for (auto it = json.constBegin(); it != json.constEnd(); ++it) {
        if (!members.contains(it.key())) {
            *error = u"unknown field '%1': a flow run names %2"_s.arg(it.key(), members.join(u", "_s));
            return std::nullopt;
        }
    }
    for (const QString &name : members) {
        const QJsonValue value = json.value(name);
        const bool typed = name == QLatin1String("duration_ms") ? value.isDouble() : value.isString();
        if (!typed) {
            *error = value.isUndefined()
                         ? u"%1 is required"_s.arg(name)
                         : u"field '%1' must be a %2"_s.arg(
                             name, name == QLatin1String("duration_ms") ? u"number"_s : u"string"_s);
            return std::nullopt;
        }
    }
    FlowRunRecord record;
    record.key = json.value(u"key"_s).toString();
    record.body = json.value(u"body"_s).toString();
    record.output = json.value(u"output"_s).toString();
    record.invocationId = json.value(u"invocation_id"_s).toString();
    record.trace = json.value(u"trace"_s).toString();
    record.startedAt = json.value(u"started_at"_s).toString();
    const double duration = json.value(u"duration_ms"_s).toDouble();
    if (record.key.isEmpty()) {
        *error = u"field 'key' must be a non-empty string"_s;
        return std::nullopt;
    }
    if (!InvocationIds::isInvocationId(record.invocationId)) {
        *error = u"field 'invocation_id' must be inv_ and 10 lowercase base-36 characters"_s;
        return std::nullopt;
    }
    if (!InvocationIds::isTrace(record.trace)) {
        *error = u"field 'trace' must be t_ and 8 lowercase base-36 characters"_s;
        return std::nullopt;
    }
    const QDateTime started = QDateTime::fromString(record.startedAt, Qt::ISODateWithMs);
    if (!started.isValid() || started.timeSpec() != Qt::UTC) {
        *error = u"field 'started_at' must be an ISO-8601 UTC time"_s;
        return std::nullopt;
    }
    if (!(duration >= 0 && duration <= double(kMaxActiveMs)) || duration != qint64(duration)) {
        *error = u"field 'duration_ms' must be a whole number from 0 to %1"_s.arg(kMaxActiveMs);
        return std::nullopt;
    }
    record.activeMs = qint64(duration);
    return record;
}
