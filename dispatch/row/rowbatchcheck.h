#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/row/row.h"

#include <QHash>
#include <QSet>
#include <QString>

// The rules an imported batch must meet before any of it is written, checked row by row
// so each refusal names the line a person has to fix: every row meets the validity
// rules (RowValidator::checkValidity, V001–V005, named by code), no key appears twice,
// and none is already taken.
class RowBatchCheck final
{
public:
    explicit RowBatchCheck(QSet<QString> takenKeys = {});

    // The first rule this row breaks, or none; `line` is where the row starts in the file.
    // A validity refusal's `details` holds its findings as JSON, each with the row's
    // position ("row", "line") and its "key", empty when the key itself breaks a rule.
    // Rows after a refused one are checked as well.
    StoreError add(const Row &row, int line);

private:
    QSet<QString> m_takenKeys;
    QHash<QString, int> m_lineOfKey;
    int m_rowCount = 0;
};
