#pragma once

#include <QDateTime>

#include <memory>

// Where the engine's timestamps come from (a row's `updated_at`, an event's `at`). The
// system's UTC time unless a test hands in a SteppingClock, so two writes are told apart
// by stepping the clock instead of sleeping past a millisecond.
class Clock
{
public:
    virtual ~Clock() = default;

    // The current time, in UTC.
    virtual QDateTime now() const = 0;

    // The system clock, the default of everything that takes a clock.
    static std::shared_ptr<const Clock> system();
};
