#pragma once

#include "dispatch/row/row.h"

#include <QJsonObject>
#include <QString>

#include <optional>

// A flow the caller ran step by step outside the dispatcher (the debugger), to be receipted
// as one flow invocation whose children are the steps it dispatched with `invocationId` as
// their parent. `activeMs` leaves out the time the run spent paused; an aborted run's
// output is its "ERR: flow aborted".
struct FlowRunRecord
{
    // The longest a debugged run may claim to have been active: a week.
    static constexpr qint64 kMaxActiveMs = 7LL * 24 * 60 * 60 * 1000;

    QString key;
    QString body;
    QString output;
    QString invocationId;
    QString trace;
    QString actor; // "owner:local" when empty
    QString startedAt; // ISO-8601 UTC
    qint64 activeMs = 0;
    // The flow row as the debugger ran it when that is an unsaved edit (or a new row): its
    // contract is what ran. Local dispatch only; never sent, a server records stored rows.
    std::optional<Row> draft;

    // The body of POST /api/flow-runs (our server's owner-only route).
    QJsonObject toJson() const;
    // Reads toJson()'s object strictly: every member present with its type, ids in their
    // SPEC §6 form, `started_at` a UTC time and `duration_ms` within 0…kMaxActiveMs, and no
    // other member; `error` names the first member that is not.
    static std::optional<FlowRunRecord> fromJson(const QJsonObject &json, QString *error);
};
