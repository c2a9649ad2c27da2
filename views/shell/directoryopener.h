#pragma once

#include "dispatch/directory/opendirectory.h"
#include "dispatch/store/directorystore.h"

#include <QCoreApplication>
#include <QString>

#include <memory>

class MemorySecrets;

// Opens local directory files for the GUI. Kept apart from main() and the menus so the
// first-start rule and the "new file" rule are written once and tested. Calls in a directory
// opened here also take the `memory` secrets (the session's, kept for want of a keychain).
class DirectoryOpener final
{
    Q_DECLARE_TR_FUNCTIONS(DirectoryOpener)

public:
    using Opened = StoreResult<OpenDirectory>;

    // An existing (or new, empty) directory file, or a PostgreSQL directory by URL with
    // the password `password` (empty: libpq's PGPASSFILE/.pgpass, or none).
    static Opened open(const QString &path, std::shared_ptr<const MemorySecrets> memory = {},
                       const QString &password = QString());
    // The default directory; on first start (no file yet) its folder is created and it
    // is filled with the sample rows, so a new user sees real capabilities.
    static Opened openDefault(const QString &path, std::shared_ptr<const MemorySecrets> memory = {});
    // A new directory at a path that must not exist yet, optionally with the sample rows.
    static Opened create(const QString &path, bool withSamples,
                         std::shared_ptr<const MemorySecrets> memory = {});

private:
    static StoreError fillWithSamples(DirectoryStore &store);
};
