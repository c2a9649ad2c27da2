#pragma once

#include "dispatch/core/clock.h"
#include "dispatch/core/storeerror.h"
#include "dispatch/row/row.h"
#include "dispatch/store/logevent.h"

#include <QJsonObject>
#include <QList>
#include <QSqlDatabase>
#include <QString>

#include <memory>
#include <optional>

class EventRowWriter;

// The hash-chained event log of SPEC §8, kept in the directory file's `events` table.
// Each event's hash is the lowercase hex SHA-256 of the canonical JSON (CanonicalJson) of
// {seq, kind, action, key, actor, at, before, after, detail, prev_hash}, and prev_hash is
// the previous event's hash (64 '0' for the first), so an edited, removed or reordered
// event breaks the chain; `event_chain_head` records the last link, so removing the
// newest events breaks it too.
//
// An EventLog that appends belongs to one write transaction: it reads the chain head at
// its first append and keeps it (and its prepared statements) for the rest, so a batch
// of 100,000 events costs one head read, not 100,000. It must not outlive its connection.
class EventLog final
{
public:
    struct Verification
    {
        bool intact = true;
        qint64 checked = 0; // events examined
        qint64 firstBrokenSeq = 0; // 0 when intact
        QString problem; // names the first broken seq plainly; empty when intact

        QJsonObject toJson() const;
    };

    static const QString kGenesisHash;

    // `clock` stamps the `at` of events appended without one.
    explicit EventLog(const QSqlDatabase &db, std::shared_ptr<const Clock> clock = Clock::system());
    ~EventLog();
    Q_DISABLE_COPY_MOVE(EventLog)

    // Must run inside an open write transaction (WriteTransaction). Fills seq, prevHash
    // and hash, and `at` when it is empty; inserts the event and moves the head.
    StoreError append(LogEvent event);
    // A DIRECTORY_MUTATE event for one row (before/after null when there is no row): the
    // rows go straight to canonical JSON without a QJsonObject each, which keeps a
    // 100,000-row import quick. Same transaction rule as append().
    StoreError appendRowChange(const QString &action, const QString &actor, const Row *before,
                               const Row *after, const QString &at = QString(),
                               const QJsonObject &detail = {});

    // Newest first; an empty key gives every event, a negative limit no limit.
    StoreResult<QList<LogEvent>> events(const QString &key = QString(), qint64 limit = -1) const;
    // Walks the whole log in seq order and reports the first break.
    StoreResult<Verification> verify() const;

    // The event as `capdeskctl log` prints it, hash included.
    static QJsonObject toJson(const LogEvent &event);

private:
    struct Head
    {
        qint64 seq = 0;
        QString hash;
    };

    StoreResult<std::optional<Head>> readHead() const;
    StoreError prepareAppend();
    // `before` and `after` are the event's sides as canonical JSON text.
    StoreError appendEncoded(LogEvent event, const QByteArray &before, const QByteArray &after);

    QSqlDatabase m_db;
    std::shared_ptr<const Clock> m_clock;
    std::optional<Head> m_head;
    std::unique_ptr<EventRowWriter> m_writer;
};
