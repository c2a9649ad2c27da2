#pragma once

#include <QSqlDatabase>
#include <QString>

// The SQL that differs between database engines, named by what it does. The repository
// classes that more than one engine will share (the migrator, the event log, receipts,
// signing keys, tokens) write portable SQL and take only these texts from their
// connection's dialect. Each engine's texts are in one file of its own
// (sqlitedialect.cpp); a new engine adds its file and a branch in of().
struct SqlDialect
{
    QString name;
    // Lists the names of the database's tables, one per row.
    QString tableNames;
    // Reads the applied migration number (one row, one integer; none when never set).
    QString schemaVersion;
    // Records `%1` as the applied migration number, inside the migration's transaction.
    QString setSchemaVersion;
    // Lists the column names of table `%1`, one per row.
    QString columnNames;
    // The highest `events.seq` the database ever issued, gone events included: one row,
    // one integer (0 when none was). A log cut back below it has lost events.
    QString eventSeqIssued;
    // A column that orders a table's rows as they were inserted: the tie-breaker of rows
    // stamped in the same millisecond.
    QString insertionOrder;

    static const SqlDialect &sqlite();
    // The dialect of `db`'s driver.
    static const SqlDialect &of(const QSqlDatabase &db);
};
