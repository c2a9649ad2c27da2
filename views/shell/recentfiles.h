#pragma once

#include <QStringList>

// The last directories opened (files and postgresql:// URLs), newest first, kept in the application's
// QSettings (organization "Capdesk", application "capdesk") under "recentFiles".
class RecentFiles final
{
public:
    static constexpr int MaxEntries = 8;

    static QStringList list();
    static void add(const QString &path);
    static void remove(const QString &path);
    static void clear();

private:
    static void store(const QStringList &paths);
};
