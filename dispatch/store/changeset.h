#pragma once

#include "dispatch/row/row.h"

#include <QList>

// One pending write. A ChangeSet is applied by a store all-or-nothing, in order.
struct RowChange
{
    enum class Kind { Create, Replace, Delete };

    Kind kind = Kind::Replace;
    Row row; // Create/Replace: the full row to write
    QString key; // Delete: the key to remove
    // Replace/Delete: the updated_at the editor read; a null string skips the check.
    QString expectedUpdatedAt;

    static RowChange create(Row row) { return {Kind::Create, std::move(row), {}, {}}; }
    static RowChange replace(Row row, QString expectedUpdatedAt = {})
    {
        return {Kind::Replace, std::move(row), {}, std::move(expectedUpdatedAt)};
    }
    static RowChange remove(QString key, QString expectedUpdatedAt = {})
    {
        return {Kind::Delete, {}, std::move(key), std::move(expectedUpdatedAt)};
    }
};

using ChangeSet = QList<RowChange>;
