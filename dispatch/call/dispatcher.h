#pragma once

#include "dispatch/call/invocation.h"

struct FlowRunRecord;

class InvocationHandle;

// The one invocation path: (key, body) → row → runner → output. The GUI, capdeskctl and
// (later) the server all call this; a local and a remote implementation share it.
class Dispatcher
{
public:
    virtual ~Dispatcher() = default;

    // Starts the call and returns at once; the handle (owned by the caller) reports the
    // outcome. Never blocks the calling thread on the network or a long builtin.
    virtual InvocationHandle *invoke(const InvocationRequest &request) = 0;
    // Writes the receipt of a flow the caller ran step by step (the debugger), whose steps
    // it invoked with `run.invocationId` as their parent. The handle's outcome carries the
    // receipt, or a refusal when this back end cannot record one.
    virtual InvocationHandle *recordFlowRun(const FlowRunRecord &run) = 0;
};
