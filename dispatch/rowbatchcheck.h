#pragma once

#include "row.h"
#include "storeerror.h"

#include <QHash>
#include <QSet>
#include <QString>

// The rules an imported batch must meet before any of it is written, checked row by row
// as a file is read so the first refusal names the line a person has to fix: every row
// has a key and one of the four types, no key appears twice, and none is already taken.
class RowBatchCheck final
{
public:
    explicit RowBatchCheck(QSet<QString> takenKeys = {});

    // The first rule this row breaks, or none; `line` is where the row starts in the file.
    StoreError add(const Row &row, int line);

private:
    QSet<QString> m_takenKeys;
    QHash<QString, int> m_lineOfKey;
    int m_rowCount = 0;
};
