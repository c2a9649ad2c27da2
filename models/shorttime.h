#pragma once

#include <QDateTime>
#include <QString>

// A stored ISO-8601 UTC time as a table shows it: the local time alone for today, the
// local short date and time otherwise, so the column reads at a glance and never needs
// cutting; the ISO text stays for tooltips, sorting and If-Match. Text that is no time
// comes back as it is.
class ShortTime final
{
public:
    static QString of(const QString &iso, const QDateTime &now = QDateTime::currentDateTime());
};
