#pragma once

#include "dispatch/core/storeerror.h"

#include <QSqlDatabase>

// One write transaction, opened with the dialect's beginWrite so the write lock is held
// from the first read (SQLite's BEGIN IMMEDIATE, PostgreSQL's advisory lock): the event
// log reads its chain head and appends after it, and a second process (the GUI and
// capdeskctl on one file, two servers on one database) must not slip a write in between. Rolls back unless
// commit() succeeded. Not nestable: callers that compose writes open one transaction and call the parts that
// assume one.
class WriteTransaction final
{
public:
    explicit WriteTransaction(const QSqlDatabase &db);
    ~WriteTransaction();
    Q_DISABLE_COPY_MOVE(WriteTransaction)

    // Why the transaction could not start; none() when it did.
    const StoreError &startError() const { return m_startError; }
    StoreError commit();

private:
    QSqlDatabase m_db;
    StoreError m_startError;
    bool m_open = false;
};
