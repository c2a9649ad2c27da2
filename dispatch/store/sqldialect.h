#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

class QSqlError;

// The SQL that differs between database engines, named by what it does. The repository
// classes both engines share (the store, the migrator, the event log, receipts, signing
// keys, tokens) write portable SQL and take only these texts from their connection's
// dialect. Each engine's texts are in one file of its own (sqlitedialect.cpp,
// postgresqldialect.cpp).
struct SqlDialect
{
    QString name;
    // The QtSql driver that speaks it.
    QString driver;
    // The folder of its migrations among the bundled resources.
    QString migrations;
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
    // Opens a write transaction that holds the right to append to the event log until it
    // ends, so the log stays one hash chain under writers from several processes.
    QStringList beginWrite;
    // Whether this connection holds that write lock: one row, one boolean. Empty where
    // the engine's own API tells (SQLite: a transaction is open).
    QString holdsWriteLock;
    // ASCII case-insensitive LIKE, with `\` as its escape.
    QString likeIgnoringCase;
    // Ends an INSERT so that it returns the new row's `seq` (QSqlQuery::lastInsertId()
    // does not know every engine's sequences).
    QString returningSeq;
    // After rows were inserted into table `%1` with their `seq` given, makes the next
    // generated seq follow them; empty where the engine does so itself (AUTOINCREMENT).
    QString followCopiedSeqs;
    // Whether SAVEPOINT, RELEASE and ROLLBACK TO can be prepared once and run again. QPSQL
    // prepares through SQL's PREPARE, which takes only SELECT, INSERT, UPDATE, DELETE and
    // VALUES, and a failed PREPARE would abort the transaction around it.
    bool preparesTransactionControl = false;
    // The driver's native error codes of a UNIQUE or PRIMARY KEY violation.
    QStringList uniqueViolationCodes;

    bool isUniqueViolation(const QSqlError &error) const;

    static const SqlDialect &sqlite();
    static const SqlDialect &postgresql();
    // The dialect of `db`'s driver.
    static const SqlDialect &of(const QSqlDatabase &db);
};
