#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/row/row.h"

#include <QByteArray>
#include <QList>

// Rows as a JSON array of row objects (the REST row shape), in and out.
class RowJsonCodec final
{
public:
    // Errors start with "line N: " (for a bad row, the line the row's object starts on,
    // with its index and key). `rowLines`, when given, receives each row's start line.
    static StoreResult<QList<Row>> decode(const QByteArray &json, QList<int> *rowLines = nullptr);
    static QByteArray encode(const QList<Row> &rows);
};
