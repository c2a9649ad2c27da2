#include "dispatch/flows/run/flowrunner.h"

#include "dispatch/flows/flowparser.h"
#include "dispatch/flows/flowshape.h"
#include "dispatch/flows/run/flowexecutor.h"
#include "dispatch/store/directorystore.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace {

// `done` never runs inside run() (the Runner contract).
void deliverLater(RunResult result, std::function<void(RunResult)> done)
{
    QTimer::singleShot(0, [result = std::move(result), done = std::move(done)] { done(result); });
}

QStringList unknownKeyNotes(const FlowPlan &plan, const DirectoryStore *store)
{
    QStringList notes;
    if (!store)
        return notes;
    const QStringList keys = plan.keys();
    for (const QString &key : keys) {
        if (!store->row(key).ok())
            notes.append(u"unknown key "_s + key);
    }
    return notes;
}

// The caller's identity and call tree budget, with this flow's invocation as the steps' parent. Nothing else
// of the caller's request (its draft row, above all) carries over to a step.
InvocationRequest stepRequest(const RunContext &context)
{
    InvocationRequest request;
    request.actor = context.request.actor;
    request.token = context.request.token;
    request.audience = context.request.audience;
    request.ownerPresent = context.request.ownerPresent;
    request.parentInvocationId = context.invocationId;
    request.trace = context.trace;
    request.depth = context.depth + 1;
    request.budget = context.request.budget;
    request.answerBeforeDurable = true;
    return request;
}

} // namespace

FlowRunner::FlowRunner(FlowLimits limits) : m_limits(limits) {}

void FlowRunner::run(const RunContext &context, std::function<void(RunResult)> done)
{
    const FlowParseResult parsed = FlowParser::parse(context.row.content);
    if (!parsed.ok())
        return deliverLater(RunResult::failure(u"flow_parse: "_s + parsed.error->describe()),
                            std::move(done));
    if (context.shape) {
        return deliverLater(
            {{}, FlowShape::request(parsed.plan, context.body), unknownKeyNotes(parsed.plan, context.store)},
            std::move(done));
    }
    if (!context.dispatcher)
        return deliverLater(RunResult::failure(u"flow: no dispatcher to run the steps"_s), std::move(done));

    auto *executor = new FlowExecutor(*context.dispatcher, parsed.plan, context.body, stepRequest(context));
    executor->setLimits(m_limits);
    executor->setCancelFlag(context.cancelled);
    QObject::connect(executor, &FlowExecutor::finished, executor,
                     [executor, done = std::move(done)](const QString &output) {
                         done(RunResult{output, {}, {}});
                         executor->deleteLater();
                     });
    executor->start();
}
