#pragma once

#include "dispatch/store/eventrowwriter.h"

#include <QSqlQuery>

// The event log's rows through QtSql's prepared statements: the engines without a faster
// path of their own (PostgreSQL).
class QtSqlEventRowWriter final : public EventRowWriter
{
public:
    static StoreResult<std::unique_ptr<EventRowWriter>> open(const QSqlDatabase &db);

    bool holdsWriteLock() const override;
    StoreError insert(const EncodedEvent &event) override;
    StoreError moveHead(qint64 seq, const QByteArray &hash) override;

private:
    explicit QtSqlEventRowWriter(const QSqlDatabase &db);

    QSqlDatabase m_db;
    QSqlQuery m_insert;
    QSqlQuery m_moveHead;
    mutable bool m_lockSeen = false;
};
