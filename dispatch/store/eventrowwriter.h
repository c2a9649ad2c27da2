#pragma once

#include "dispatch/core/storeerror.h"

#include <QByteArray>
#include <QSqlDatabase>

#include <memory>

// One event as the `events` table stores it: UTF-8 texts, a null flag where a column may
// be SQL NULL.
struct EncodedEvent
{
    qint64 seq = 0;
    QByteArray kind;
    QByteArray action;
    QByteArray key;
    bool keyIsNull = false;
    QByteArray actor;
    QByteArray at;
    QByteArray before; // canonical JSON; "null" is stored as SQL NULL
    QByteArray after;
    QByteArray detail;
    QByteArray prevHash;
    QByteArray hash;
};

// Writes the event log's rows for one write transaction: inserts an event and moves the
// chain head. EventLog computes the chain; this only stores it, through whatever the
// connection's engine writes fastest.
class EventRowWriter
{
public:
    virtual ~EventRowWriter() = default;

    // Whether the connection holds the write lock (WriteTransaction) that keeps the chain
    // head from moving under the caller.
    virtual bool holdsWriteLock() const = 0;
    virtual StoreError insert(const EncodedEvent &event) = 0;
    virtual StoreError moveHead(qint64 seq, const QByteArray &hash) = 0;

    // The writer for `db`'s engine; an error when its statements cannot be prepared.
    static StoreResult<std::unique_ptr<EventRowWriter>> forConnection(const QSqlDatabase &db);
};
