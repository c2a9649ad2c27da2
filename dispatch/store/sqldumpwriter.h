#pragma once

#include "dispatch/row/row.h"

#include <QByteArray>
#include <QList>

// Writes rows as a SQL text dump in the shape production exports: the production
// CREATE TABLE, then one INSERT naming all 18 columns per row. sqlite3, Cloudflare D1 and
// SqlDumpReader all read it back to the same rows, NULLs and empty strings kept apart.
class SqlDumpWriter final
{
public:
    static QByteArray write(const QList<Row> &rows);
};
