#pragma once

#include "dispatch/row/row.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// One flow step as a run sees it: before it runs, what it runs with (the debugger's
// variables); after, what came back. Fan-out branches are its calls, in branch order.
struct FlowStepState
{
    enum class Phase { Pending, Running, Done, Failed };

    struct Call
    {
        QString key;
        QString resolvedBody;
        std::optional<Row> row; // the target row; nullopt when unknown or not looked up
        Phase phase = Phase::Pending;
        QString output;
        qint64 durationMs = 0; // the runner's time, as the receipt records it
        QString invocationId; // the nested call's receipt; empty when it was refused
        qint64 startedAtUs = -1; // since the run began, for the timeline
        qint64 finishedAtUs = -1;
        QString receiptParent; // the parent that receipt names; empty when it names none or is unread
    };

    int index = 0;
    QString prev; // $PREV before the step
    QStringList args; // $1…$N
    QHash<QString, QString> bindings; // $NAME before the step
    QList<Call> calls;
    Phase phase = Phase::Pending;
    QString output; // $PREV after the step
    bool pinned = false; // taken from an earlier run instead of running again
};
