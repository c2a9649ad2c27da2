#pragma once

#include "directorystore.h"
#include "storeerror.h"

#include <QByteArray>
#include <QString>

// Brings rows from a file into a directory: a JSON array of rows (first non-blank
// character '[') or a SQL text dump of the directory table. All or nothing: the whole file
// is read and checked (UTF-8, types, keys repeated in the file or already in the store)
// before the store sees a row, and the store writes the batch in one transaction.
// Refusals start with "line N: " naming the first line to fix.
class DirectoryImporter final
{
public:
    // The number of rows imported.
    static StoreResult<int> importBytes(DirectoryStore &store, const QByteArray &bytes);
    static StoreResult<int> importFile(DirectoryStore &store, const QString &path);
};
