#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/receiptsummaryview.h"

#include <functional>
#include <memory>

class SqlDirectoryStore;

// Reads the `receipts` columns the viewer lists with one forward-only query. Safe from
// any thread: off the store's own thread it reads through a short-lived read-only
// connection, so 100,000 receipts load without blocking the GUI.
class ReceiptSummaryReader final
{
public:
    explicit ReceiptSummaryReader(std::shared_ptr<const SqlDirectoryStore> store);

    // Gives `sink` the receipts with seq > `afterSeq`, oldest first; with `newestOnly` > 0,
    // only that many of the newest. A view is valid only during its sink call.
    StoreError read(qint64 afterSeq, int newestOnly,
                    const std::function<void(const ReceiptSummaryView &)> &sink) const;

private:
    std::shared_ptr<const SqlDirectoryStore> m_store;
};
