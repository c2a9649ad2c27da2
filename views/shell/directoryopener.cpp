#include "views/shell/directoryopener.h"

#include "dispatch/directory/localdirectory.h"
#include "dispatch/store/sampledirectory.h"

#include <QDir>
#include <QFileInfo>

DirectoryOpener::Opened DirectoryOpener::open(const QString &path,
                                              std::shared_ptr<const MemorySecrets> memory,
                                              const QString &password)
{
    return LocalDirectory::open(path, std::move(memory), [password](const QString &) { return password; });
}

DirectoryOpener::Opened DirectoryOpener::openDefault(const QString &path,
                                                     std::shared_ptr<const MemorySecrets> memory)
{
    if (QFileInfo::exists(path))
        return open(path, std::move(memory));
    return create(path, true, std::move(memory));
}

DirectoryOpener::Opened DirectoryOpener::create(const QString &path, bool withSamples,
                                                std::shared_ptr<const MemorySecrets> memory)
{
    const QFileInfo info(path);
    // Never take over someone's file: a new directory gets a new name.
    if (info.exists())
        return StoreError::make(StoreError::Kind::AlreadyExists,
                                tr("%1 already exists. Choose a new name, or open it instead.").arg(path));
    if (!QDir().mkpath(info.absolutePath()))
        return StoreError::make(StoreError::Kind::Io,
                                tr("cannot create the folder %1").arg(info.absolutePath()));
    Opened directory = open(path, std::move(memory));
    if (!directory.ok() || !withSamples)
        return directory;
    if (const StoreError error = fillWithSamples(*directory.value().store); error.isError())
        return error;
    return directory;
}

StoreError DirectoryOpener::fillWithSamples(DirectoryStore &store)
{
    const StoreResult<QList<Row>> rows = SampleDirectory::rows();
    if (!rows.ok())
        return rows.error();
    return store.importRows(rows.value());
}
