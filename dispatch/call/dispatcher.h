#pragma once

#include "dispatch/call/invocation.h"

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
};
