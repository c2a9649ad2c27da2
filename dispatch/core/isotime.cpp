#include "dispatch/core/isotime.h"

#include "dispatch/core/clock.h"

#include <QDateTime>

namespace IsoTime {

QString nowUtc()
{
    return nowUtc(*Clock::system());
}

QString nowUtc(const Clock &clock)
{
    return clock.now().toString(Qt::ISODateWithMs);
}

} // namespace IsoTime
