#pragma once

#include "dispatch/call/dispatcher.h"
#include "dispatch/call/invocationhandle.h"
#include "dispatch/row/row.h"

#include <QTest>

#include <memory>

// What both remote tests need: a row that passes the hygiene gate (so the server accepts
// it) whose example fits a `latitude|longitude` call, and a call waited for.
inline Row documentedRow(const QString &key, const QString &type, const QString &target)
{
    Row row;
    row.key = key;
    row.type = type;
    row.target = target;
    row.category = QStringLiteral("tools");
    row.content = QStringLiteral("# WHAT: %1 for a remote test.\n# WHEN_TO_USE: a test needs it.\n"
                                 "# ARGS: $1=latitude | $2=longitude\n# EX: [%1]37.77|-122.42[/%1]\n"
                                 "# OUTPUT: the answer")
                      .arg(key);
    row.examples = QStringLiteral("[\"37.77|-122.42\"]");
    return row;
}

inline InvocationOutcome invokeAndWait(Dispatcher &dispatcher, const InvocationRequest &request)
{
    std::unique_ptr<InvocationHandle> handle(dispatcher.invoke(request));
    if (!QTest::qWaitFor([&] { return handle->isFinished(); }, 30000))
        return {};
    return handle->outcome();
}
