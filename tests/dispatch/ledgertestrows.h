#pragma once

// Shared by the ledger tests (tst_directoryledger, tst_receiptlogaudit): the fn rows their
// receipts are issued for.

#include "dispatch/row/row.h"

inline Row fnRow(const QString &key, const QString &target)
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = target;
    row.content = QStringLiteral("# WHAT: test row");
    return row;
}
