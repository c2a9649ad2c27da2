#pragma once

#include "dispatch/runners/builtins/builtinregistry.h"
#include "dispatch/runners/runner.h"

#include <QList>
#include <QMutex>
#include <QThreadPool>

#include <atomic>
#include <memory>

// The `fn` runner (SPEC §3): the row's target names a builtin and its payload is a JSON
// array template of the builtin's arguments, `["$1"]` when the payload is empty.
//
// A builtin that waits (sleep_ms) runs on the runner's own thread pool, never on the
// calling thread, so it cannot freeze the GUI; instant builtins run in place. Either way
// `done` comes back through the calling thread's event loop (a QEventLoop will do), never
// from inside run(). Shape mode calls no builtin and
// reports {"fn": target, "args": [...]}.
class FnRunner final : public Runner
{
public:
    // The registry must outlive the runner.
    explicit FnRunner(const BuiltinRegistry &registry = BuiltinRegistry::standard());
    // Cancels the builtins still running and waits for them, which takes at most one
    // sleep_ms poll interval plus whatever non-waiting builtin is mid-way.
    ~FnRunner() override;
    Q_DISABLE_COPY_MOVE(FnRunner)

    void run(const RunContext &context, std::function<void(RunResult)> done) override;

private:
    void startTracking(const std::shared_ptr<std::atomic_bool> &cancelled);
    void stopTracking(const std::shared_ptr<std::atomic_bool> &cancelled);

    const BuiltinRegistry &m_registry;
    QThreadPool m_pool;
    QMutex m_inFlightMutex;
    QList<std::shared_ptr<std::atomic_bool>> m_inFlight; // cancel flags of running builtins
};
