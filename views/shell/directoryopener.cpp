#include "views/shell/directoryopener.h"

#include "dispatch/store/sampledirectory.h"
#include "dispatch/store/sqlitedirectorystore.h"

#include <QDir>
#include <QFileInfo>

DirectoryOpener::Opened DirectoryOpener::open(const QString &path)
{
    StoreResult<std::shared_ptr<SqliteDirectoryStore>> store = SqliteDirectoryStore::open(path);
    if (!store.ok())
        return store.error();
    return std::shared_ptr<DirectoryStore>(store.value());
}

DirectoryOpener::Opened DirectoryOpener::openDefault(const QString &path)
{
    if (QFileInfo::exists(path))
        return open(path);
    return create(path, true);
}

DirectoryOpener::Opened DirectoryOpener::create(const QString &path, bool withSamples)
{
    const QFileInfo info(path);
    // Never take over someone's file: a new directory gets a new name.
    if (info.exists())
        return StoreError::make(StoreError::Kind::AlreadyExists,
                                tr("%1 already exists. Choose a new name, or open it instead.").arg(path));
    if (!QDir().mkpath(info.absolutePath()))
        return StoreError::make(StoreError::Kind::Io,
                                tr("cannot create the folder %1").arg(info.absolutePath()));
    Opened store = open(path);
    if (!store.ok() || !withSamples)
        return store;
    if (const StoreError error = fillWithSamples(*store.value()); error.isError())
        return error;
    return store;
}

StoreError DirectoryOpener::fillWithSamples(DirectoryStore &store)
{
    const StoreResult<QList<Row>> rows = SampleDirectory::rows();
    if (!rows.ok())
        return rows.error();
    return store.importRows(rows.value());
}
