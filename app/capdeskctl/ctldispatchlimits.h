#pragma once

#include "app/capdeskctl/ctlarguments.h"
#include "dispatch/core/dispatchlimits.h"

#include <QCommandLineOption>
#include <QList>

#include <optional>

// The DispatchLimits options `invoke` and `serve` share: --max-output-bytes,
// --max-tree-calls, --max-tree-bytes, --max-fan-out and --call-timeout (ms), each a
// positive whole number; the rest keep DispatchLimits' defaults.
class CtlDispatchLimits final
{
public:
    static QList<QCommandLineOption> options();
    // The limits the line gives, or nullopt with `error` naming the bad option.
    static std::optional<DispatchLimits> parse(const CtlArguments &args, QString *error);
};
