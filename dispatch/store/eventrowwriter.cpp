#include "dispatch/store/eventrowwriter.h"

#include "dispatch/store/qtsqleventrowwriter.h"
#include "dispatch/store/sqldialect.h"
#include "dispatch/store/sqliteeventrowwriter.h"

StoreResult<std::unique_ptr<EventRowWriter>> EventRowWriter::forConnection(const QSqlDatabase &db)
{
    if (&SqlDialect::of(db) == &SqlDialect::sqlite())
        return SqliteEventRowWriter::open(db);
    return QtSqlEventRowWriter::open(db);
}
