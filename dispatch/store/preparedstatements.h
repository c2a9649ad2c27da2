#pragma once

#include "dispatch/store/preparedrun.h"

#include <QHash>
#include <QSqlDatabase>
#include <QString>
#include <QVariantList>

#include <memory>

// The statements one connection runs over and over, each prepared once and kept for the
// connection's life. Parsing a statement costs more than running these short ones: a
// flow step read its row and wrote its receipt with five statements parsed afresh, and
// the parsing was a seventh of the step. Used on the connection's thread only, and
// destroyed before the connection closes.
class PreparedStatements final
{
public:
    explicit PreparedStatements(const QSqlDatabase &db) : m_db(db) {}
    Q_DISABLE_COPY_MOVE(PreparedStatements)

    // Runs `sql` with `values` bound in order. A statement that fails is prepared afresh on
    // its next run, so a schema another process migrated meanwhile costs one error, not
    // every later one. One run of a given `sql` at a time: the run must go before the next.
    PreparedRun run(const QString &sql, const QVariantList &values = {});
    // SAVEPOINT, RELEASE or ROLLBACK TO: kept where the dialect can prepare one, else run as
    // it is each time.
    PreparedRun control(const QString &sql);

private:
    QSqlDatabase m_db;
    QHash<QString, std::shared_ptr<QSqlQuery>> m_kept;
};
