#include "dispatch/core/steppingclock.h"

SteppingClock::SteppingClock(const QDateTime &start) : m_msecsSinceEpoch(start.toMSecsSinceEpoch()) {}

QDateTime SteppingClock::now() const
{
    return QDateTime::fromMSecsSinceEpoch(m_msecsSinceEpoch.load(), Qt::UTC);
}

void SteppingClock::set(const QDateTime &time)
{
    m_msecsSinceEpoch.store(time.toMSecsSinceEpoch());
}

void SteppingClock::advance(qint64 milliseconds)
{
    m_msecsSinceEpoch.fetch_add(milliseconds);
}
