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
    // Replace: the event-log seq of the saved version this write puts back (History's
    // "Restore this version"), logged as a `restore`; 0 for an ordinary edit. A store
    // without an event log writes it as a plain replace.
    qint64 restoresSeq = 0;

    static RowChange create(Row row) { return {Kind::Create, std::move(row), {}, {}, 0}; }
    static RowChange replace(Row row, QString expectedUpdatedAt = {})
    {
        return {Kind::Replace, std::move(row), {}, std::move(expectedUpdatedAt), 0};
    }
    static RowChange restore(Row row, QString expectedUpdatedAt, qint64 versionSeq)
    {
        return {Kind::Replace, std::move(row), {}, std::move(expectedUpdatedAt), versionSeq};
    }
    static RowChange remove(QString key, QString expectedUpdatedAt = {})
    {
        return {Kind::Delete, {}, std::move(key), std::move(expectedUpdatedAt), 0};
    }
};

using ChangeSet = QList<RowChange>;
