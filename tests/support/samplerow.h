#pragma once

#include "dispatch/row/row.h"

// A compliant fn row named `key` (SPEC §8), for store tests about something other than
// the gate, which refuses a non-compliant create.
inline Row sampleRow(const QString &key)
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = QStringLiteral("echo");
    row.content = QStringLiteral("# WHAT: echo\n# WHEN_TO_USE: tests.\n# ARGS: $1=text\n# EX: [%1]hi[/%1]\n"
                                 "# OUTPUT: the text\n[\"$1\"]")
                      .arg(key);
    row.category = QStringLiteral("tools");
    return row;
}
