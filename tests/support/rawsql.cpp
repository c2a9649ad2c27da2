#include "tests/support/rawsql.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

namespace RawSql {

QString exec(const QString &path, const QStringList &statements)
{
    const QString connection = QStringLiteral("raw");
    QString failure;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(path);
        if (!db.open()) {
            failure = db.lastError().text();
        } else {
            QSqlQuery query(db);
            for (const QString &sql : statements) {
                if (!query.exec(sql)) {
                    failure = query.lastError().text();
                    break;
                }
            }
            query.finish();
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(connection);
    return failure;
}

} // namespace RawSql
