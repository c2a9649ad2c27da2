#pragma once

#include "dispatch/store/eventrowwriter.h"

#include <memory>

struct sqlite3;
struct sqlite3_stmt;

// The event log's rows on SQLite, bound straight through SQLite's API: QSqlQuery's binding
// (a QVariant, a generated placeholder name and a UTF-16 copy per value) doubled the cost
// of a 100,000-row import.
class SqliteEventRowWriter final : public EventRowWriter
{
public:
    static StoreResult<std::unique_ptr<EventRowWriter>> open(const QSqlDatabase &db);

    bool holdsWriteLock() const override;
    StoreError insert(const EncodedEvent &event) override;
    StoreError moveHead(qint64 seq, const QByteArray &hash) override;

private:
    struct StatementDeleter
    {
        void operator()(sqlite3_stmt *statement) const;
    };
    using Statement = std::unique_ptr<sqlite3_stmt, StatementDeleter>;

    explicit SqliteEventRowWriter(sqlite3 *connection) : m_connection(connection) {}
    StoreError failure(const QString &what) const;

    sqlite3 *m_connection; // the QtSql connection's own handle
    Statement m_insert;
    Statement m_moveHead;
};
