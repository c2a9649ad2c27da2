#pragma once

#include "dispatch/core/flowlimits.h"

#include <QtGlobal>

// Every bound one call (and the call tree it starts) runs under, each crossing reported as
// a named "ERR:". A LocalDispatcher holds one (StandardDispatcher takes it from the GUI's
// defaults, `capdeskctl invoke` and `capdeskctl serve` options); a call's CallBudget
// carries it down the tree, so runners and builtins read their caps from the call itself.
struct DispatchLimits
{
    static constexpr qint64 mebibyte = 1024 * 1024;

    // Any one runner output, flow step body, $PREV or fan-out object, in UTF-8 bytes:
    // "ERR: output_limit: …".
    qint64 maxOutputBytes = 16 * mebibyte;
    // The whole call tree of one top-level call, nested flows and self-calls through
    // /api/dispatch included: "ERR: call_budget: …".
    int maxTreeCalls = 256; // invocations, the top-level one included
    qint64 maxTreeBytes = 64 * mebibyte; // all their outputs together
    int maxFanOutWidth = 16; // branches of one fan-out step
    // The top-level call's deadline: its work is cancelled then ("ERR: dispatch_timeout").
    int timeoutMs = 120000;
    // PCRE2 cannot be interrupted, so regex_extract refuses what could run long:
    // "ERR: regex_extract: pattern_limit / subject_limit".
    int maxRegexPatternChars = 1024;
    int maxRegexSubjectChars = 1024 * 1024;
    // Depth, calls per flow and the flow's own running time (SPEC §4).
    FlowLimits flow;
};
