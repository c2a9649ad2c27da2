#pragma once

#include "dispatch/core/storeerror.h"

#include <QList>
#include <QString>
#include <QStringView>

struct SqlStatement
{
    QString text; // without the terminating ';', comments kept
    int line = 1; // 1-based line where the statement starts
};

// Splits SQL text into statements on ';' outside quotes, comments and trigger bodies.
// A dump cut off mid-statement or mid-string is an error naming the line it started on,
// never a silently shorter list.
class SqlStatementSplitter final
{
public:
    static StoreResult<QList<SqlStatement>> split(QStringView sql);
};
