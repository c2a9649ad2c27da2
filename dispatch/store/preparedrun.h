#pragma once

#include <QSqlError>
#include <QSqlQuery>

#include <memory>

// One run of a kept prepared statement (PreparedStatements): its rows, then, when it goes,
// the statement is finished so it holds no read snapshot or lock until its next run.
class PreparedRun final
{
public:
    PreparedRun(std::shared_ptr<QSqlQuery> query, bool ok) : m_query(std::move(query)), m_ok(ok) {}
    ~PreparedRun();
    Q_DISABLE_COPY_MOVE(PreparedRun)

    bool ok() const { return m_ok; }
    QSqlError lastError() const { return m_query->lastError(); }
    QSqlQuery &query() { return *m_query; }

private:
    std::shared_ptr<QSqlQuery> m_query;
    bool m_ok = false;
};
