#pragma once

#include <QtGlobal>

#include <string_view>

// The columns of one `receipts` row the viewer lists, as raw UTF-8 valid only while the
// row is being read.
struct ReceiptSummaryView
{
    qint64 seq = 0;
    std::string_view invocationId;
    std::string_view trace;
    std::string_view parent; // empty at the top level
    std::string_view key;
    std::string_view actor;
    std::string_view runner;
    std::string_view startedAt;
    std::string_view status;
    qint64 durationMs = 0;
    bool material = false;
};
