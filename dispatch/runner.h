#pragma once

#include "invocation.h"
#include "row.h"

#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

class DirectoryStore;
class SecretSource;

// Everything a runner may use for one call. Runners never write to the store and never
// throw past themselves: every failure is an output starting with "ERR:".
struct RunContext
{
    Row row;
    QString body;
    QStringList args; // body split on '|'
    bool shape = false;
    const DirectoryStore *store = nullptr;  // for includes (agent) and nested rows (flow)
    const SecretSource *secrets = nullptr;
    std::shared_ptr<std::atomic_bool> cancelled = std::make_shared<std::atomic_bool>(false);
};

// One `type` value's way of running a row. Asynchronous: `done` is called exactly once,
// on the thread that called run() (runners that block move the work off it themselves).
class Runner
{
public:
    virtual ~Runner() = default;
    virtual void run(const RunContext &context, std::function<void(RunResult)> done) = 0;
};
