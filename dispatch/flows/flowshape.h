#pragma once

#include "dispatch/flows/flowplan.h"

#include <QJsonObject>
#include <QString>

// A flow's shape-mode request (SPEC §5): the plan, each call with its body resolved where
// that is knowable without running earlier steps.
class FlowShape final
{
public:
    // {"steps":[…]} as FlowPlan::toJson() gives it, each call with "resolved_body": the
    // body substituted with the flow's args (and $PREV in the first step, where it is the
    // flow's body), or null when it names $PREV or a binding an earlier step makes.
    static QJsonObject request(const FlowPlan &plan, const QString &body);
};
