#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/row/row.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

class QIODevice;

// What a dump held: the rows of its `directory` table, the line each row's INSERT starts
// on, and what else the dump created or filled, which was read and left out.
struct SqlDump
{
    QList<Row> rows;
    QList<int> lines;
    QStringList skipped; // "table 'd1_migrations' (3 INSERTs)", "index 'by_category' on 'directory'"
};

// Reads the `directory` table out of a SQL text dump: the CREATE TABLE + INSERT text
// production exports (`wrangler d1 export`, with or without --table), what `sqlite3 .dump`
// writes and SqlDumpWriter's output. SQLite itself parses the dump, one statement at a time,
// over an empty in-memory database behind SqlDumpGate's authorizer and SqlDumpLimits; the
// file is read a statement at a time, never whole. Other tables, their rows, indexes,
// triggers and views are left out and named in `skipped`. Every refusal starts with
// "line N: " so an owner can open the dump at the spot; a refused dump yields no rows.
class SqlDumpReader final
{
public:
    static StoreResult<SqlDump> read(QIODevice &device);
    static StoreResult<SqlDump> read(const QByteArray &sql);
};
