#include "dispatch/store/sqldialect.h"

const SqlDialect &SqlDialect::of(const QSqlDatabase &db)
{
    // Every connection a store opens today is SQLite's (QSQLITE); a second engine's
    // driver name picks its own dialect here.
    Q_ASSERT(db.driverName() == QLatin1String("QSQLITE"));
    Q_UNUSED(db)
    return sqlite();
}
