#pragma once

#include "dispatch/call/invocation.h"
#include "dispatch/row/row.h"

#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

class DirectoryStore;
class Dispatcher;
class SecretSource;

// Everything a runner may use for one call. Runners never write to the store and never
// throw past themselves: every failure is an output starting with "ERR:".
struct RunContext
{
    Row row;
    QString body;
    QStringList args; // body split on '|'
    bool shape = false;
    const DirectoryStore *store = nullptr; // for includes (agent) and nested rows (flow)
    const SecretSource *secrets = nullptr;
    std::shared_ptr<std::atomic_bool> cancelled = std::make_shared<std::atomic_bool>(false);

    // This call's identity, for runners that make nested calls (flow steps): they pass
    // these on as the nested request's parentInvocationId, trace and depth + 1, through
    // `dispatcher`, so every step is gated, run and receipted like any other call.
    QString invocationId; // empty for shape calls
    QString trace;
    int depth = 0;
    Dispatcher *dispatcher = nullptr;
    InvocationRequest request; // as the caller made it (actor, token, audience, …)
};

// One `type` value's way of running a row. Asynchronous: `done` is called exactly once,
// on the thread that called run() (runners that block move the work off it themselves).
class Runner
{
public:
    virtual ~Runner() = default;
    virtual void run(const RunContext &context, std::function<void(RunResult)> done) = 0;
};
