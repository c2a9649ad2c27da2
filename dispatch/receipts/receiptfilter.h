#pragma once

#include <QString>

#include <limits>

// Which receipts the viewer lists: every condition set must hold.
struct ReceiptFilter
{
    QString key; // a part of the key, ASCII case-insensitive; empty: every key
    QString status; // exactly; empty: every status
    qint64 fromMsecs = std::numeric_limits<qint64>::min(); // started at or after (UTC, ms since the epoch)
    qint64 toMsecs = std::numeric_limits<qint64>::max(); // started at or before
    QString search; // a part of the invocation id or the trace
    QString actor; // who called, exactly ("mcp:claude-desktop", "token:tok_…"); empty: anyone

    bool isEmpty() const { return *this == ReceiptFilter(); }
    bool operator==(const ReceiptFilter &o) const
    {
        return key == o.key && status == o.status && actor == o.actor && fromMsecs == o.fromMsecs
               && toMsecs == o.toMsecs && search == o.search;
    }
    bool operator!=(const ReceiptFilter &o) const { return !(*this == o); }
};
