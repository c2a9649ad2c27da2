#pragma once

#include "dispatch/core/storeerror.h"

class ReceiptSummaryTable;
class SqliteDirectoryStore;

// Reads the `receipts` columns the viewer lists into a ReceiptSummaryTable with one
// forward-only query. Safe from any thread: off the store's own thread it reads through
// a short-lived read-only connection, so 100,000 receipts load without blocking the GUI.
class ReceiptSummaryReader final
{
public:
    // Appends the receipts with seq > `afterSeq`, oldest first; with `newestOnly` > 0,
    // only that many of the newest.
    static StoreError read(const SqliteDirectoryStore &store, qint64 afterSeq, int newestOnly,
                           ReceiptSummaryTable *into);
};
