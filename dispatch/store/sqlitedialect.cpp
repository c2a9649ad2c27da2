#include "dispatch/store/sqldialect.h"

using namespace Qt::StringLiterals;

// SQLite keeps its own bookkeeping in pragmas and in the sqlite_master and sqlite_sequence
// tables, and gives every ordinary table a rowid.
const SqlDialect &SqlDialect::sqlite()
{
    static const SqlDialect dialect{
        u"SQLite"_s,
        u"SELECT name FROM sqlite_master WHERE type = 'table'"_s,
        u"PRAGMA user_version"_s,
        u"PRAGMA user_version = %1"_s,
        u"SELECT name FROM pragma_table_info('%1')"_s,
        u"SELECT COALESCE(MAX(seq), 0) FROM sqlite_sequence WHERE name = 'events'"_s,
        u"rowid"_s,
    };
    return dialect;
}
