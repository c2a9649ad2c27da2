#include "dispatch/store/connectionname.h"

#include <QAtomicInteger>

namespace ConnectionName {

QString fresh(const QString &purpose)
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("capdesk-%1-%2").arg(purpose).arg(counter.fetchAndAddRelaxed(1));
}

} // namespace ConnectionName
