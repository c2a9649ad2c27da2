#include "dispatch/tokens/capabilitygaterefusalcounter.h"

#include <algorithm>

CapabilityGateRefusalCounter::CapabilityGateRefusalCounter(qint64 intervalMs)
    : m_intervalMs(std::max<qint64>(intervalMs, 0))
{}

bool CapabilityGateRefusalCounter::count(qint64 nowMs, const QString &at)
{
    if (m_pending.count == 0)
        m_pending.firstAt = at;
    m_pending.lastAt = at;
    ++m_pending.count;
    return dueIn(nowMs) == 0;
}

qint64 CapabilityGateRefusalCounter::dueIn(qint64 nowMs) const
{
    if (m_pending.count == 0 || m_lastWrittenMs < 0)
        return 0;
    return std::max<qint64>(m_lastWrittenMs + m_intervalMs - nowMs, 0);
}

CapabilityGateRefusalCounter::Summary CapabilityGateRefusalCounter::take(qint64 nowMs)
{
    m_lastWrittenMs = nowMs;
    return std::exchange(m_pending, Summary{});
}
