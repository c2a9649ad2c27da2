#include "dispatch/flows/flowplan.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace {

void insertPosition(QJsonObject &object, const TextPosition &position)
{
    object.insert(u"line"_s, position.line);
    object.insert(u"column"_s, position.column);
}

} // namespace

QJsonObject FlowCall::toJson() const
{
    QJsonObject object{{u"key"_s, key}, {u"body"_s, body}};
    if (!bodyWritten)
        object.insert(u"body_from_prev"_s, true);
    if (!binding.isEmpty())
        object.insert(u"binding"_s, binding);
    insertPosition(object, position);
    return object;
}

QJsonObject FlowStep::toJson() const
{
    QJsonObject object;
    if (fanOut) {
        QJsonArray branches;
        for (const FlowCall &call : calls)
            branches.append(call.toJson());
        object.insert(u"kind"_s, u"fanout"_s);
        object.insert(u"branches"_s, branches);
        insertPosition(object, position);
    } else {
        object = calls.value(0).toJson();
        object.insert(u"kind"_s, u"call"_s);
    }
    if (!binding.isEmpty())
        object.insert(u"binding"_s, binding);
    return object;
}

QJsonObject FlowPlan::toJson() const
{
    QJsonArray list;
    for (const FlowStep &step : steps)
        list.append(step.toJson());
    return {{u"steps"_s, list}};
}

int FlowPlan::callCount() const
{
    int count = 0;
    for (const FlowStep &step : steps)
        count += int(step.calls.size());
    return count;
}

QStringList FlowPlan::keys() const
{
    QStringList result;
    for (const FlowStep &step : steps) {
        for (const FlowCall &call : step.calls) {
            if (!result.contains(call.key))
                result.append(call.key);
        }
    }
    return result;
}
