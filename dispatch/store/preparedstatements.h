#pragma once

#include "dispatch/store/preparedrun.h"

#include <QHash>
#include <QSqlDatabase>
#include <QString>
#include <QVariantList>

#include <memory>

// The statements one connection runs over and over, each prepared once and kept for the
// connection's life: a flow step read its row and wrote its receipt with five statements
// parsed afresh, and the parsing was a seventh of the step. Used on the connection's
// thread only, and destroyed before the connection closes. On PostgreSQL a kept statement
// lives in the server's session, so the connection must not be pooled per transaction.
class PreparedStatements final
{
public:
    explicit PreparedStatements(const QSqlDatabase &db) : m_db(db) {}
    Q_DISABLE_COPY_MOVE(PreparedStatements)

    // Runs `sql` with every one of its placeholders bound from `values`, in order. A
    // statement that fails (other than on a UNIQUE constraint) is prepared afresh on its
    // next run, so a schema another process migrated meanwhile costs one error, not every
    // later one. While a run of `sql` is alive, another gets a statement of its own. A text
    // with a `*` in it is prepared for each run, never kept.
    PreparedRun run(const QString &sql, const QVariantList &values = {});
    // SAVEPOINT, RELEASE or ROLLBACK TO: kept where the dialect can prepare one, else run as
    // it is each time.
    PreparedRun control(const QString &sql);
    // How many statements are kept now: which failures drop one shows only here.
    qsizetype keptCount() const { return m_kept.size(); }

private:
    PreparedRun runOnce(const QString &sql, const QVariantList &values);

    QSqlDatabase m_db;
    QHash<QString, std::shared_ptr<QSqlQuery>> m_kept;
};
