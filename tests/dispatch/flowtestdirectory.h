#pragma once

// Shared by the flow tests: a directory file with a few fn rows, its real ledger (signing
// key in a file) and a LocalDispatcher that runs fn and flow rows, as the app does.

#include "dispatch/call/invocationhandle.h"
#include "dispatch/flows/run/flowrunner.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/localdispatcher.h"
#include "dispatch/runners/fnrunner.h"
#include "dispatch/store/sqldirectorystore.h"

#include <QSignalSpy>
#include <QTemporaryDir>

#include <memory>

inline Row flowTestRow(const QString &key, const QString &type, const QString &target, const QString &payload)
{
    Row row;
    row.key = key;
    row.type = type;
    row.target = target;
    row.content = QStringLiteral("# WHAT: a flow test row\n") + payload;
    row.updatedAt = QStringLiteral("2026-01-01T00:00:00.000Z");
    return row;
}

class FlowTestDirectory
{
public:
    // SHOUT (upper), ECHO (the whole body back), NAP (sleep_ms), BOOM (fail).
    bool open(const FlowLimits &limits = {})
    {
        auto opened = SqlDirectoryStore::open(m_dir.filePath(QStringLiteral("flows.db")));
        if (!opened.ok())
            return false;
        store = opened.value();
        const QString fn = QStringLiteral("fn");
        const StoreError imported = store->importRows({
            flowTestRow(QStringLiteral("SHOUT"), fn, QStringLiteral("upper"), {}),
            flowTestRow(QStringLiteral("ECHO"), fn, QStringLiteral("echo"), QStringLiteral("[\"$1+\"]")),
            flowTestRow(QStringLiteral("NAP"), fn, QStringLiteral("sleep_ms"), {}),
            flowTestRow(QStringLiteral("BOOM"), fn, QStringLiteral("fail"), {}),
        });
        if (imported.isError())
            return false;
        ledger = std::make_shared<DirectoryLedger>(store, DirectoryLedger::KeyPlacement::FileOnly);
        dispatcher = std::make_unique<LocalDispatcher>(store, nullptr, ledger);
        dispatcher->setRunner(QStringLiteral("fn"), std::make_unique<FnRunner>());
        dispatcher->setRunner(QStringLiteral("flow"), std::make_unique<FlowRunner>(limits));
        return true;
    }

    bool addFlow(const QString &key, const QString &content)
    {
        Row row = flowTestRow(key, QStringLiteral("flow"), {}, {});
        row.content = content;
        return !store->importRows({row}).isError();
    }

    InvocationOutcome invoke(const QString &key, const QString &body, bool shape = false)
    {
        InvocationRequest request;
        request.key = key;
        request.body = body;
        request.shape = shape;
        return await(dispatcher->invoke(request));
    }

    static InvocationOutcome await(InvocationHandle *handle)
    {
        if (!handle->isFinished()) {
            QSignalSpy finished(handle, &InvocationHandle::finished);
            finished.wait(20000);
        }
        InvocationOutcome outcome = handle->outcome();
        delete handle;
        return outcome;
    }

    // A direct BOOM call (it fails at once), answered with its receipt. Steps still queued
    // on this dispatcher when it is made start before it, and receipts are issued in order,
    // so a test that must show a step did NOT run checks after this, not after a fixed wait.
    bool roundTrip()
    {
        const InvocationOutcome outcome = invoke(QStringLiteral("BOOM"), QString());
        return outcome.receipt.has_value() && outcome.receipt->key == QLatin1String("BOOM");
    }

    QList<Receipt> receipts(const QString &key, const QString &parent = {}) const
    {
        ReceiptLog::Query query;
        query.key = key;
        query.parent = parent;
        return ledger->receipts().list(query).value();
    }

    std::shared_ptr<SqlDirectoryStore> store;
    std::shared_ptr<DirectoryLedger> ledger;
    std::unique_ptr<LocalDispatcher> dispatcher;

private:
    QTemporaryDir m_dir;
};
