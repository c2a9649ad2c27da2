#include "dispatch/store/preparedstatements.h"

#include "dispatch/store/sqldialect.h"

PreparedRun PreparedStatements::run(const QString &sql, const QVariantList &values)
{
    std::shared_ptr<QSqlQuery> &kept = m_kept[sql];
    if (!kept) {
        auto query = std::make_shared<QSqlQuery>(m_db);
        if (!query->prepare(sql)) {
            m_kept.remove(sql);
            return PreparedRun(std::move(query), false);
        }
        kept = query;
    }
    std::shared_ptr<QSqlQuery> query = kept;
    for (qsizetype i = 0; i < values.size(); ++i)
        query->bindValue(int(i), values[i]);
    if (query->exec())
        return PreparedRun(std::move(query), true);
    m_kept.remove(sql);
    return PreparedRun(std::move(query), false);
}

PreparedRun PreparedStatements::control(const QString &sql)
{
    if (SqlDialect::of(m_db).preparesTransactionControl)
        return run(sql);
    auto query = std::make_shared<QSqlQuery>(m_db);
    const bool ok = query->exec(sql);
    return PreparedRun(std::move(query), ok);
}
