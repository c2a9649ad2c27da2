#include "models/shorttime.h"

#include <QLocale>

QString ShortTime::of(const QString &iso, const QDateTime &now)
{
    const QDateTime utc = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!utc.isValid())
        return iso;
    const QDateTime local = utc.toLocalTime();
    const QLocale locale;
    // Minutes are enough at a glance (some locales' short format keeps the seconds).
    const QString time = local.time().toString(QStringLiteral("HH:mm"));
    if (local.date() == now.toLocalTime().date())
        return time;
    return locale.toString(local.date(), QLocale::ShortFormat) + u' ' + time;
}
