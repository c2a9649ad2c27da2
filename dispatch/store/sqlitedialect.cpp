#include "dispatch/store/sqldialect.h"

using namespace Qt::StringLiterals;

// SQLite keeps its own bookkeeping in pragmas and in the sqlite_master and sqlite_sequence
// tables, and gives every ordinary table a rowid. One writer at a time holds the whole file
// (BEGIN IMMEDIATE), which is also the event log's lock.
const SqlDialect &SqlDialect::sqlite()
{
    static const SqlDialect dialect{
        u"SQLite"_s,
        u"QSQLITE"_s,
        u":/migrations/sqlite"_s,
        u"SELECT name FROM sqlite_master WHERE type = 'table'"_s,
        u"PRAGMA user_version"_s,
        u"PRAGMA user_version = %1"_s,
        u"SELECT name FROM pragma_table_info('%1')"_s,
        u"SELECT COALESCE(MAX(seq), 0) FROM sqlite_sequence WHERE name = 'events'"_s,
        u"rowid"_s,
        {u"BEGIN IMMEDIATE"_s},
        QString(),
        u"LIKE"_s,
        QString(),
        QString(),
        true,
        // SQLITE_CONSTRAINT_PRIMARYKEY, SQLITE_CONSTRAINT_UNIQUE
        {u"1555"_s, u"2067"_s},
    };
    return dialect;
}
