#include "views/shell/recentfiles.h"

#include "dispatch/store/postgreslocation.h"

#include <QFileInfo>
#include <QSettings>

namespace {

const QString kKey = QStringLiteral("recentFiles");

// One entry per directory however it was named: a file by its absolute path, a database
// by its URL as Capdesk shows it (never holding a password: such a URL does not open).
QString normalised(const QString &path)
{
    if (PostgresLocation::isUrl(path)) {
        const StoreResult<PostgresLocation> location = PostgresLocation::parse(path);
        return location.ok() ? location.value().display() : path;
    }
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
