#include "dispatch/store/preparedstatements.h"

#include "dispatch/store/sqldialect.h"

namespace {

bool bindAndExec(QSqlQuery &query, const QVariantList &values)
{
    for (qsizetype i = 0; i < values.size(); ++i)
        query.bindValue(int(i), values[i]);
    return query.exec();
}

} // namespace

PreparedRun PreparedStatements::run(const QString &sql, const QVariantList &values)
{
    // Qt 6.4's SQLite driver sizes a statement's row before sqlite3_step, which prepares the
    // statement again after a schema change: a `*` that now names one more column makes
    // the driver write past the row. Named columns cannot grow, so only those are kept.
    if (sql.contains(u'*'))
        return runOnce(sql, values);
    std::shared_ptr<QSqlQuery> &kept = m_kept[sql];
    // A run of the same text still alive keeps its own rows: this one gets a statement of
    // its own, not kept.
    if (kept && kept.use_count() > 1)
        return runOnce(sql, values);
    if (!kept) {
        auto query = std::make_shared<QSqlQuery>(m_db);
        if (!query->prepare(sql)) {
            m_kept.remove(sql);
            return PreparedRun(std::move(query), false);
        }
        kept = query;
    }
    std::shared_ptr<QSqlQuery> query = kept;
    if (bindAndExec(*query, values))
        return PreparedRun(std::move(query), true);
    // A constraint refusing the values is no fault of the statement. Dropping it inside
    // PostgreSQL's aborted transaction would also fail to DEALLOCATE it.
    if (!SqlDialect::of(m_db).isUniqueViolation(query->lastError()))
        m_kept.remove(sql);
    return PreparedRun(std::move(query), false);
}

PreparedRun PreparedStatements::runOnce(const QString &sql, const QVariantList &values)
{
    auto query = std::make_shared<QSqlQuery>(m_db);
    const bool ok = query->prepare(sql) && bindAndExec(*query, values);
    return PreparedRun(std::move(query), ok);
}

PreparedRun PreparedStatements::control(const QString &sql)
{
    if (SqlDialect::of(m_db).preparesTransactionControl)
        return run(sql);
    auto query = std::make_shared<QSqlQuery>(m_db);
    const bool ok = query->exec(sql);
    return PreparedRun(std::move(query), ok);
}
