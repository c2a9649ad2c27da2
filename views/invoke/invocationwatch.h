#pragma once

#include "dispatch/call/invocationhandle.h"

#include <QObject>

#include <utility>

// Calls `then(outcome)` once the handle has finished, unless `context` is gone by then,
// and deletes the handle afterwards. A handle may already be finished when invoke()
// returns (a shape call builds its request synchronously), so waiting for finished()
// alone would miss it. The handle is never deleted early: the dispatcher still holds it
// until the runner reports, so a caller that goes away only stops listening.
template<typename Then>
void watchInvocation(InvocationHandle *handle, QObject *context, Then then)
{
    if (handle->isFinished()) {
        then(handle->outcome());
        handle->deleteLater();
        return;
    }
    QObject::connect(handle, &InvocationHandle::finished, handle, &QObject::deleteLater);
    QObject::connect(handle, &InvocationHandle::finished, context,
                     [handle, then = std::move(then)]() { then(handle->outcome()); });
}
