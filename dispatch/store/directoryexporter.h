#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/store/directorystore.h"

#include <QByteArray>

// Writes every row of a directory in a format DirectoryImporter reads back to the same
// rows: a JSON array of rows, or a SQL text dump production can load.
class DirectoryExporter final
{
public:
    enum class Format { Json, Sql };

    static StoreResult<QByteArray> exportBytes(const DirectoryStore &store, Format format);
};
