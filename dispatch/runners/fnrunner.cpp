#include "dispatch/runners/fnrunner.h"

#include "dispatch/call/callbudget.h"
#include "dispatch/json/jsonvaluetext.h"
#include "dispatch/row/doclines.h"
#include "dispatch/templates/templatesubstitution.h"

#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutexLocker>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace {

// Builtins are quick except sleep_ms, which exists to test concurrency: enough threads
// that every branch of a large fan-out can wait at once, whatever the core count.
constexpr int maxWorkerThreads = 64;

// The builtin's arguments as the row's payload gives them for this body, or why it cannot.
struct FnArgs
{
    QStringList args;
    QString error; // "ERR: …" when the payload does not give an argument array
    QString payloadText; // the substituted payload, shown by shape mode when it failed
};

FnArgs resolveArgs(const RunContext &context)
{
    QString payload = DocLines::stripDocs(context.row.content);
    if (payload.trimmed().isEmpty())
        payload = uR"(["$1"])"_s;

    TemplateContext templateContext;
    templateContext.args = context.args;
    const TemplateResult substituted =
        TemplateSubstitution::apply(payload, templateContext, TemplateMode::Json,
                                    context.request.budget ? context.request.budget->limits().maxOutputBytes
                                                           : DispatchLimits{}.maxOutputBytes);
    if (!substituted.ok())
        return {{}, substituted.error, substituted.text};

    const QJsonDocument document = QJsonDocument::fromJson(substituted.text.toUtf8());
    if (!document.isArray())
        return {{}, u"ERR: fn payload must be a JSON array of arguments"_s, substituted.text};

    FnArgs result;
    const QJsonArray array = document.array();
    for (const QJsonValue value : array)
        result.args.append(JsonValueText::plain(value));
    return result;
}

RunResult shapeResult(const QString &name, const FnArgs &call, bool known)
{
    QJsonObject request{{u"fn"_s, name}};
    QStringList notes;
    if (call.error.isEmpty()) {
        request.insert(u"args"_s, QJsonArray::fromStringList(call.args));
    } else {
        request.insert(u"payload"_s, call.payloadText);
        notes.append(call.error);
    }
    if (!known)
        notes.append(u"unknown fn "_s + name);
    return {{}, request, notes};
}

// Hands the result to `done` from the calling thread's event loop. The watcher is created
// here, so it lives in the calling thread, and it posts its finished signal there even
// when the future is already finished, so `done` never runs inside run().
void deliver(const QFuture<RunResult> &future, std::function<void(RunResult)> done)
{
    auto *watcher = new QFutureWatcher<RunResult>;
    QObject::connect(watcher, &QFutureWatcherBase::finished, watcher, [watcher, done = std::move(done)] {
        done(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(future);
}

void deliverNow(const RunResult &result, std::function<void(RunResult)> done)
{
    deliver(QtFuture::makeReadyFuture(result), std::move(done));
}

} // namespace

FnRunner::FnRunner(const BuiltinRegistry &registry) : m_registry(registry)
{
    m_pool.setMaxThreadCount(maxWorkerThreads);
}

FnRunner::~FnRunner()
{
    {
        const QMutexLocker locker(&m_inFlightMutex);
        for (const auto &cancelled : std::as_const(m_inFlight))
            cancelled->store(true);
    }
    // Before the members go: running tasks still untrack themselves through this runner.
    m_pool.waitForDone();
}

void FnRunner::run(const RunContext &context, std::function<void(RunResult)> done)
{
    const QString name = context.row.target.trimmed();
    const BuiltinFunction *function = m_registry.find(name);
    const FnArgs call = resolveArgs(context);

    if (context.shape)
        return deliverNow(shapeResult(name, call, function != nullptr), std::move(done));
    if (!function)
        return deliverNow(RunResult::failure(u"unknown fn "_s + name), std::move(done));
    if (!call.error.isEmpty())
        return deliverNow(RunResult{call.error, {}, {}}, std::move(done));

    // A context built without a cancel flag still gets one, so the runner can stop the call.
    const BuiltinCall builtinCall{
        call.args, context.cancelled ? context.cancelled : std::make_shared<std::atomic_bool>(false),
        context.request.budget ? context.request.budget->limits() : DispatchLimits{}};
    if (m_registry.timing(name) == BuiltinRegistry::Timing::Instant) {
        const QString output = builtinCall.isCancelled() ? u"ERR: cancelled"_s : (*function)(builtinCall);
        return deliverNow(RunResult{output, {}, {}}, std::move(done));
    }
    startTracking(builtinCall.cancelled);
    QFuture<RunResult> future = QtConcurrent::run(&m_pool, [this, builtin = *function, builtinCall] {
        const QString output = builtinCall.isCancelled() ? u"ERR: cancelled"_s : builtin(builtinCall);
        stopTracking(builtinCall.cancelled);
        return RunResult{output, {}, {}};
    });
    deliver(future, std::move(done));
}

void FnRunner::startTracking(const std::shared_ptr<std::atomic_bool> &cancelled)
{
    const QMutexLocker locker(&m_inFlightMutex);
    m_inFlight.append(cancelled);
}

void FnRunner::stopTracking(const std::shared_ptr<std::atomic_bool> &cancelled)
{
    const QMutexLocker locker(&m_inFlightMutex);
    m_inFlight.removeOne(cancelled);
}
