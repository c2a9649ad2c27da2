#pragma once

#include "row.h"
#include "storeerror.h"

#include <QList>

// The rows a new directory starts with (resources/sample/directory.json): the article's
// capabilities and enough neighbours that every panel has something real to show.
class SampleDirectory final
{
public:
    static StoreResult<QList<Row>> rows();
};
