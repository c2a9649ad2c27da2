#include "dispatch/core/isotime.h"

#include <QDateTime>

namespace IsoTime {

QString nowUtc()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

} // namespace IsoTime
