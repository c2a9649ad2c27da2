#pragma once

#include "dispatch/core/clock.h"

#include <atomic>

// A clock that moves only when told to: a test sets it or steps it between two writes, so
// their timestamps differ (or are equal) by exactly the step, without a sleep. Safe to
// read from the store's worker threads while the test thread steps it.
class SteppingClock final : public Clock
{
public:
    // Starts at `start` (to the millisecond), by default the system's time now.
    explicit SteppingClock(const QDateTime &start = QDateTime::currentDateTimeUtc());

    QDateTime now() const override;
    void set(const QDateTime &time);
    void advance(qint64 milliseconds = 1);

private:
    std::atomic<qint64> m_msecsSinceEpoch;
};
