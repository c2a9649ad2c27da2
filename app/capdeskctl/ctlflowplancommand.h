#pragma once

#include "app/capdeskctl/ctlarguments.h"

#include <memory>

class DirectoryStore;

// `flow-plan KEY` (SPEC §11): the parsed flow as JSON, {"ok":true,"key",
// "steps":[…]} (FlowPlan::toJson()). Exit 1 with {"ok":false,"error","line","column"}
// when the flow does not parse, 3 when there is no such row, 2 when it is not a flow.
class CtlFlowPlanCommand final
{
public:
    CtlFlowPlanCommand(const CtlArguments &args, std::shared_ptr<DirectoryStore> store);

    int run();

private:
    const CtlArguments &m_args;
    std::shared_ptr<DirectoryStore> m_store;
};
