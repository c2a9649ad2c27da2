#include "dispatch/store/writetransaction.h"

#include "dispatch/store/sqldialect.h"

#include <QSqlError>
#include <QSqlQuery>

WriteTransaction::WriteTransaction(const QSqlDatabase &db) : m_db(db)
{
    QSqlQuery begin(m_db);
    for (const QString &statement : SqlDialect::of(m_db).beginWrite) {
        if (!begin.exec(statement)) {
            m_startError = StoreError::make(
                StoreError::Kind::Io,
                QStringLiteral("cannot start a write transaction: %1").arg(begin.lastError().text()));
            break;
        }
        m_open = true;
    }
    if (m_startError.isError() && m_open) {
        begin.exec(QStringLiteral("ROLLBACK"));
        m_open = false;
    }
}

WriteTransaction::~WriteTransaction()
{
    if (m_open) {
        QSqlQuery rollback(m_db);
        rollback.exec(QStringLiteral("ROLLBACK"));
    }
}

StoreError WriteTransaction::commit()
{
    if (!m_open)
        return m_startError.isError()
                   ? m_startError
                   : StoreError::make(StoreError::Kind::Io, QStringLiteral("no open transaction"));
    QSqlQuery commit(m_db);
    if (!commit.exec(QStringLiteral("COMMIT")))
        return StoreError::make(StoreError::Kind::Io,
                                QStringLiteral("cannot commit: %1").arg(commit.lastError().text()));
    m_open = false;
    return StoreError::none();
}
