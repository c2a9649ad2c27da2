#pragma once

#include "dispatch/core/flowlimits.h"
#include "dispatch/runners/runner.h"

// The `flow` runner (SPEC §4): parses the row's content and runs it with a FlowExecutor,
// each step a nested call through the dispatcher that runs the flow, so every step is
// gated, run and receipted with the flow's invocation as its parent. A content that does
// not parse fails with "ERR: flow_parse: line L, column C: reason". Shape mode runs
// nothing and reports the plan with the bodies it can resolve (FlowShape).
class FlowRunner final : public Runner
{
public:
    explicit FlowRunner(FlowLimits limits = {});

    void run(const RunContext &context, std::function<void(RunResult)> done) override;

private:
    FlowLimits m_limits;
};
