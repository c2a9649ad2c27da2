#pragma once

#include "dispatch/core/dispatchlimits.h"

#include <QStringList>

#include <atomic>
#include <memory>

// What one fn builtin receives: the elements of the row's substituted payload array, and
// the invocation's cancel flag, which a builtin that waits must poll so a cancelled call
// does not hold a worker thread, and so must a builtin whose loop can run long; and the
// call tree's limits, whose byte cap a builtin that grows its input checks before growing.
struct BuiltinCall
{
    QStringList args;
    std::shared_ptr<std::atomic_bool> cancelled = std::make_shared<std::atomic_bool>(false);
    DispatchLimits limits = {};

    // Arg n (0-based), empty when the payload gave fewer.
    QString arg(qsizetype n) const { return args.value(n); }
    bool isCancelled() const { return cancelled && cancelled->load(); }
};
