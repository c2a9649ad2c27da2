#pragma once

#include "row.h"

#include <QList>

// One pending write. A ChangeSet is applied by a store all-or-nothing, in order.
struct RowChange
{
    enum class Kind { Create, Replace, Delete };

    Kind kind = Kind::Replace;
    Row row;     // Create/Replace: the full row to write
    QString key; // Delete: the key to remove

    static RowChange create(Row row) { return {Kind::Create, std::move(row), {}}; }
    static RowChange replace(Row row) { return {Kind::Replace, std::move(row), {}}; }
    static RowChange remove(QString key) { return {Kind::Delete, {}, std::move(key)}; }
};

using ChangeSet = QList<RowChange>;
