#pragma once

#include "row.h"
#include "storeerror.h"

#include <QList>
#include <QString>

// Reads the rows of the `directory` table out of a SQL text dump: the CREATE TABLE +
// INSERT text production exports (Cloudflare D1), what `sqlite3 .dump` writes (quoted
// names, no column lists, newlines as replace(…, char(10))) and SqlDumpWriter's output.
// Anything that is not the directory table is refused, never skipped, and every refusal
// starts with "line N: " so an owner can open the dump at the spot.
class SqlDumpReader final
{
public:
    // `rowLines`, when given, receives the line each row starts on, parallel to the rows.
    static StoreResult<QList<Row>> read(const QString &sqlText, QList<int> *rowLines = nullptr);
};
