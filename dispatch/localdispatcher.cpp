#include "localdispatcher.h"

#include "directorystore.h"
#include "invocationhandle.h"
#include "invocationids.h"
#include "templatecontext.h"

#include <QElapsedTimer>
#include <QTimer>

LocalDispatcher::LocalDispatcher(std::shared_ptr<const DirectoryStore> store, std::shared_ptr<const SecretSource> secrets)
    : m_store(std::move(store)), m_secrets(std::move(secrets))
{
}

LocalDispatcher::~LocalDispatcher()
{
    for (const QPointer<InvocationHandle> &handle : std::as_const(m_open)) {
        if (!handle || handle->isFinished())
            continue;
        InvocationOutcome outcome;
        outcome.ran = true;
        outcome.result = RunResult::failure(QStringLiteral("cancelled: the directory was closed"));
        handle->cancel();
        handle->finish(outcome);
    }
}

void LocalDispatcher::setRunner(const QString &type, std::unique_ptr<Runner> runner)
{
    m_runners.insert(type, std::shared_ptr<Runner>(std::move(runner)));
}

InvocationHandle *LocalDispatcher::invoke(const InvocationRequest &request)
{
    auto *handle = new InvocationHandle;
    InvocationOutcome outcome;
    outcome.shape = request.shape;
    outcome.trace = InvocationIds::newTrace();

    // Refusals still finish asynchronously, so callers handle every outcome one way.
    auto refuse = [handle, &outcome](const QString &reason) {
        outcome.refusal = reason;
        QTimer::singleShot(0, handle, [handle, outcome] { handle->finish(outcome); });
        return handle;
    };
    const StoreResult<Row> row = request.draft ? StoreResult<Row>(*request.draft) : m_store->row(request.key);
    if (!row.ok()) {
        return refuse(row.error().kind == StoreError::Kind::NotFound ? QStringLiteral("unknown key %1").arg(request.key)
                                                                     : row.error().message);
    }
    if (!row.value().enabled && !request.shape)
        return refuse(QStringLiteral("%1 is disabled").arg(request.key));
    const std::shared_ptr<Runner> runner = m_runners.value(row.value().type);
    if (!runner)
        return refuse(QStringLiteral("no %1 runner in this build").arg(row.value().type));

    outcome.runner = row.value().type;
    if (!request.shape)
        outcome.invocationId = InvocationIds::newInvocationId();
    outcome.ran = true;

    RunContext context;
    context.row = row.value();
    context.body = request.body;
    context.args = TemplateContext::splitBody(request.body);
    context.shape = request.shape;
    context.store = m_store.get();
    context.secrets = m_secrets.get();
    context.cancelled = handle->cancelFlag();

    m_open.removeIf([](const QPointer<InvocationHandle> &open) { return !open || open->isFinished(); });
    m_open.append(handle);
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    // The runner is kept alive by the callback, so replacing it mid-call is safe.
    runner->run(context, [handle = QPointer<InvocationHandle>(handle), outcome, timer, runner](RunResult result) mutable {
        if (!handle)
            return;
        outcome.result = std::move(result);
        outcome.durationMs = timer->elapsed();
        handle->finish(std::move(outcome));
    });
    return handle;
}
