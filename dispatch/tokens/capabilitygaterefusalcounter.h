#pragma once

#include <QString>

// Counts the gate's refusals of token values that match no stored token. Anyone can send
// those, so each is not worth an event in the append-only log: the log gets at most one
// summary event per interval (SPEC §7 as amended in the README), the first refusal of a
// quiet spell at once, so a lone probe is still seen. Refusals of known tokens are logged
// one by one elsewhere.
class CapabilityGateRefusalCounter final
{
public:
    static constexpr qint64 kDefaultIntervalMs = 60'000;

    struct Summary
    {
        qint64 count = 0;
        QString firstAt; // ISO-8601 UTC of the first refusal counted
        QString lastAt;
    };

    explicit CapabilityGateRefusalCounter(qint64 intervalMs = kDefaultIntervalMs);

    // Counts one refusal at `nowMs` (a monotonic clock) stamped `at`; true when a summary is
    // due now: nothing was written within the last interval.
    bool count(qint64 nowMs, const QString &at);
    // Milliseconds from `nowMs` until the pending refusals are due; 0 when due or none.
    qint64 dueIn(qint64 nowMs) const;
    // The refusals counted since the last take, and the interval starts again at `nowMs`.
    Summary take(qint64 nowMs);
    qint64 pending() const { return m_pending.count; }

private:
    qint64 m_intervalMs;
    qint64 m_lastWrittenMs = -1; // -1: nothing written yet
    Summary m_pending;
};
