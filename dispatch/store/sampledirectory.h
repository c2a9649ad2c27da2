#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/row/row.h"

#include <QList>

// The rows a new directory starts with (resources/sample/directory.json): the article's
// capabilities and enough neighbours that every panel has something real to show.
class SampleDirectory final
{
public:
    static StoreResult<QList<Row>> rows();
};
