#include "dispatch/store/sqldialect.h"

#include <QSqlError>

const SqlDialect &SqlDialect::of(const QSqlDatabase &db)
{
    if (db.driverName() == postgresql().driver)
        return postgresql();
    // Every other connection a store opens is SQLite's (QSQLITE).
    Q_ASSERT(db.driverName() == sqlite().driver);
    return sqlite();
}

bool SqlDialect::isUniqueViolation(const QSqlError &error) const
{
    return uniqueViolationCodes.contains(error.nativeErrorCode());
}
