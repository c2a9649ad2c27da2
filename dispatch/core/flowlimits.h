#pragma once

// SPEC §4's limits on one flow invocation, each reported as a named "ERR:" output.
struct FlowLimits
{
    int maxDepth = 8; // nested invocations below the outermost call
    int maxSteps = 64; // calls one invocation makes, each fan-out branch counting as one
    // Running time of the whole flow; the time a debugger spends paused does not count.
    int timeoutMs = 120000;
};
