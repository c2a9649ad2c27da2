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

QString nowUtcAfter(const Clock &clock, const QString &previous)
{
    const QDateTime now = clock.now();
    const QDateTime last = QDateTime::fromString(previous, Qt::ISODateWithMs);
    if (!last.isValid() || last.toString(Qt::ISODateWithMs) != previous || now > last)
        return now.toString(Qt::ISODateWithMs);
    return last.addMSecs(1).toString(Qt::ISODateWithMs);
}

} // namespace IsoTime
