#include "views/shell/recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace {

const QString kKey = QStringLiteral("recentFiles");

QString normalised(const QString &path)
{
    return QFileInfo(path).absoluteFilePath();
}

} // namespace

QStringList RecentFiles::list()
{
    return QSettings().value(kKey).toStringList().mid(0, MaxEntries);
}

void RecentFiles::add(const QString &path)
{
    QStringList paths = list();
    const QString entry = normalised(path);
    paths.removeAll(entry);
    paths.prepend(entry);
    store(paths.mid(0, MaxEntries));
}

void RecentFiles::remove(const QString &path)
{
    QStringList paths = list();
    paths.removeAll(normalised(path));
    store(paths);
}

void RecentFiles::clear()
{
    store({});
}

void RecentFiles::store(const QStringList &paths)
{
    QSettings().setValue(kKey, paths);
}
