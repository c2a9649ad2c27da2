#include "dispatch/invoke/localdispatcher.h"

#include "dispatch/call/callbudget.h"
#include "dispatch/call/flowrunrecord.h"
#include "dispatch/call/invocationhandle.h"
#include "dispatch/call/invocationids.h"
#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/core/faultnotice.h"
#include "dispatch/core/isotime.h"
#include "dispatch/core/outputlimit.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/worldeffects.h"
#include "dispatch/row/authspec.h"
#include "dispatch/secrets/resolvedsecret.h"
#include "dispatch/store/directorystore.h"
#include "dispatch/templates/templatecontext.h"
#include "dispatch/tokens/capabilitygate.h"

#include <QTimer>

#include <limits>

using namespace Qt::StringLiterals;

LocalDispatcher::LocalDispatcher(std::shared_ptr<const DirectoryStore> store,
                                 std::shared_ptr<const SecretSource> secrets,
                                 std::shared_ptr<DirectoryLedger> ledger)
    : m_store(std::move(store)), m_ledger(std::move(ledger)), m_secrets(std::move(secrets))
{}

LocalDispatcher::~LocalDispatcher()
{
    // Steps answered before their receipts were on disk are written now, not left to a
    // ledger that an ending event loop may never get to destroy.
    m_ledger->flushReceipts();
    for (const QPointer<InvocationHandle> &handle : std::as_const(m_open)) {
        if (!handle || handle->isFinished())
            continue;
        InvocationOutcome outcome;
        if (handle->hasStarted()) {
            outcome.ran = true;
            outcome.result = RunResult::failure(QStringLiteral("cancelled: the directory was closed"));
        } else {
            outcome.refusal = QStringLiteral("not run: the directory was closed before the call started");
            outcome.refusalStatus = 503;
        }
        handle->cancel();
        handle->finish(outcome);
    }
}

void LocalDispatcher::setRunner(const QString &type, std::unique_ptr<Runner> runner)
{
    m_runners.insert(type, std::shared_ptr<Runner>(std::move(runner)));
}

std::optional<std::pair<QString, int>> LocalDispatcher::gate(const InvocationRequest &request, const Row &row,
                                                             QString *actor)
{
    const StoreResult<CapabilityToken> token = m_ledger->tokens().findByValue(request.token);
    GateVerdict verdict = token.ok() ? CapabilityGate::check(
                              token.value(), {row.key, request.body, request.audience, request.ownerPresent},
                              row, QDateTime::currentDateTimeUtc())
                                     : CapabilityGate::unknownToken();
    const QString tokenId = token.ok() ? token.value().id : QString();
    *actor = token.ok() ? u"token:"_s + tokenId : u"token:unknown"_s;
    if (verdict.allowed)
        return std::nullopt;
    const StoreError logged = m_ledger->recordRefusal(row.key, tokenId, verdict.reason, *actor);
    if (logged.isError())
        // The caller holds a token, not the owner key: the store's text stays in the log.
        return std::pair(verdict.reason + u" (and the refusal could not be logged: "_s
                             + FaultNotice::hide(logged.message) + u')',
                         verdict.httpStatus);
    return std::pair(verdict.reason, verdict.httpStatus);
}

// Refusals still finish asynchronously, so callers handle every outcome one way.
InvocationHandle *LocalDispatcher::finishLater(InvocationHandle *handle, const InvocationOutcome &outcome)
{
    QTimer::singleShot(0, handle, [handle, outcome] { handle->finish(outcome); });
    return handle;
}

InvocationHandle *LocalDispatcher::recordFlowRun(const FlowRunRecord &run)
{
    auto *handle = new InvocationHandle;
    InvocationOutcome outcome;
    outcome.trace = run.trace;
    const StoreResult<Row> row = run.draft ? StoreResult<Row>(*run.draft) : m_store->row(run.key);
    if (!row.ok() || row.value().type != QLatin1String("flow")) {
        outcome.refusal = row.ok() ? u"%1 is not a flow"_s.arg(run.key) : row.error().message;
        outcome.refusalStatus = row.ok() ? 400 : (row.error().kind == StoreError::Kind::NotFound ? 404 : 500);
        return finishLater(handle, outcome);
    }
    outcome.ran = true;
    outcome.runner = row.value().type;
    outcome.invocationId = run.invocationId;
    outcome.result.output = run.output;
    outcome.durationMs = run.activeMs;

    Receipt receipt;
    receipt.invocationId = run.invocationId;
    receipt.trace = run.trace;
    receipt.key = run.key;
    receipt.actor = run.actor.isEmpty() ? u"owner:local"_s : run.actor;
    receipt.runner = outcome.runner;
    receipt.startedAt = run.startedAt;
    receipt.durationMs = run.activeMs;
    receipt.material = outcome.material();
    receipt.status = Receipt::statusFor(receipt.material);
    receipt.inputFingerprint = Receipt::sha256Hex(run.body);
    receipt.outputFingerprint = Receipt::sha256Hex(run.output);
    receipt.contractFingerprint = ContractFingerprint::of(row.value());
    track(handle);
    issueAndFinish(m_ledger, std::move(receipt), handle, std::move(outcome));
    return handle;
}

void LocalDispatcher::track(InvocationHandle *handle)
{
    m_open.removeIf([](const QPointer<InvocationHandle> &open) { return !open || open->isFinished(); });
    m_open.append(handle);
}

void LocalDispatcher::issueAndFinish(const std::shared_ptr<DirectoryLedger> &ledger, Receipt receipt,
                                     const QPointer<InvocationHandle> &handle, InvocationOutcome outcome,
                                     ReceiptGroupCommit::Release release)
{
    // The callback holds the ledger until the receipt is written, even if the directory
    // closes while the signing key is being unlocked.
    ledger->issueAsync(
        std::move(receipt),
        [ledger, handle, outcome = std::move(outcome)](const StoreResult<Receipt> &issued) mutable {
            if (issued.ok())
                outcome.receipt = issued.value();
            else
                outcome.receiptError = issued.error().message;
            if (handle)
                handle->finish(std::move(outcome));
        },
        release);
}

InvocationHandle *LocalDispatcher::invoke(const InvocationRequest &request)
{
    auto *handle = new InvocationHandle;
    InvocationOutcome outcome;
    outcome.shape = request.shape;
    outcome.trace = request.trace.isEmpty() ? InvocationIds::newTrace() : request.trace;

    auto refuse = [handle, &outcome](const QString &reason, int status) {
        outcome.refusal = reason;
        outcome.refusalStatus = status;
        return finishLater(handle, outcome);
    };
    const StoreResult<Row> row = request.draft ? StoreResult<Row>(*request.draft) : m_store->row(request.key);
    if (!row.ok()) {
        if (row.error().kind == StoreError::Kind::NotFound)
            return refuse(u"unknown key %1"_s.arg(request.key), 404);
        return refuse(row.error().message, 500);
    }
    QString actor = request.actor.isEmpty() ? u"owner:local"_s : request.actor;
    if (!request.token.isEmpty()) {
        if (const auto refusal = gate(request, row.value(), &actor))
            return refuse(refusal->first, refusal->second);
    }
    if (!row.value().enabled && !request.shape)
        return refuse(u"%1 is disabled"_s.arg(request.key), 403);
    const std::shared_ptr<Runner> runner = m_runners.value(row.value().type);
    if (!runner)
        return refuse(u"no %1 runner in this build"_s.arg(row.value().type), 501);
    QString budgetError;
    const std::optional<std::shared_ptr<CallBudget>> budget = budgetFor(request, &budgetError);
    if (!budget)
        return refuse(budgetError, 400);
    if (!request.shape) {
        if (const std::optional<QString> spent = (*budget)->takeCalls(1))
            return refuse(*spent, 429);
    }

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
    context.cancelled = handle->cancelFlag();
    context.invocationId = outcome.invocationId;
    context.trace = outcome.trace;
    context.depth = qMax(request.depth, (*budget)->inheritedDepth());
    context.dispatcher = this;
    context.request = request;
    context.request.budget = *budget;

    Receipt receipt;
    if (!request.shape) {
        receipt.invocationId = outcome.invocationId;
        receipt.trace = outcome.trace;
        receipt.key = row.value().key;
        receipt.parent = request.parentInvocationId.isEmpty() ? QString() : request.parentInvocationId;
        receipt.actor = actor;
        receipt.runner = outcome.runner;
        receipt.inputFingerprint = Receipt::sha256Hex(request.body);
        receipt.contractFingerprint = ContractFingerprint::of(row.value());
    }

    track(handle);
    Call call{runner,  std::move(context), std::move(outcome), std::move(receipt), handle, {}, {},
              *budget, !request.budget};
    cancelAtDeadline(call);
    if (call.context.shape || m_ledger->holdsSigningKey()) {
        lookUpSecretThenStart(std::move(call));
        return handle;
    }
    // A call is run only once its receipt can be signed: a key that cannot be had (a named
    // key file that holds nothing, a damaged key file) would leave its effects unreceipted.
    m_ledger->unlockAsync(&m_lookups, [this, call = std::move(call)](const StoreError &locked) mutable {
        if (locked.isError())
            return refuseUnstarted(std::move(call), locked.message, 500);
        if (call.context.cancelled->load())
            return refuseUnstarted(std::move(call),
                                   u"stopped before it started (cancelled, or its deadline passed) while its "
                                   "receipt key was unlocked"_s,
                                   504);
        lookUpSecretThenStart(std::move(call));
    });
    return handle;
}

void LocalDispatcher::lookUpSecretThenStart(Call call)
{
    // The call's time starts once its receipt can be signed: a keychain's first answer is
    // not part of it.
    if (!call.context.shape)
        call.receipt.startedAt = IsoTime::nowUtc();
    call.timer.start();
    const std::optional<AuthSpec> auth = m_secrets ? AuthSpec::parse(call.context.row.auth) : std::nullopt;
    if (!auth)
        return start(std::move(call));
    // The row's secret is looked up first, so that no runner waits on the keychain here.
    m_secrets->lookupAsync(
        auth->name, &m_lookups,
        [this, call = std::move(call), name = auth->name](const SecretSource::Lookup &found) mutable {
            call.secret = std::make_shared<ResolvedSecret>(name, found);
            call.context.secrets = call.secret.get();
            start(std::move(call));
        });
}

void LocalDispatcher::refuseUnstarted(Call call, const QString &reason, int status)
{
    InvocationOutcome outcome = std::move(call.outcome);
    outcome.ran = false;
    outcome.invocationId.clear();
    outcome.refusal = reason;
    outcome.refusalStatus = status;
    if (call.handle)
        call.handle->finish(std::move(outcome));
}

std::optional<std::shared_ptr<CallBudget>> LocalDispatcher::budgetFor(const InvocationRequest &request,
                                                                      QString *error) const
{
    if (request.budget)
        return request.budget;
    return CallBudget::fromHeader(request.inheritedBudget, m_limits, error);
}

void LocalDispatcher::cancelAtDeadline(const Call &call)
{
    if (!call.topLevel || call.context.shape)
        return;
    // On the dispatcher's own context, not the handle's: a caller that drops its handle
    // leaves the work running, and the deadline must still stop it.
    QTimer::singleShot(
        int(qBound(qint64(0), call.budget->remainingMs(), qint64(std::numeric_limits<int>::max()))),
        &m_lookups, [cancelled = call.context.cancelled] { cancelled->store(true); });
}

// The byte cap and the tree's budgets, applied to a finished call's output.
void LocalDispatcher::bound(Call &call)
{
    QString &output = call.outcome.result.output;
    const DispatchLimits &limits = call.budget->limits();
    if (call.topLevel && call.budget->expired() && output.startsWith(QLatin1String("ERR:"))) {
        output =
            u"ERR: dispatch_timeout: the call ran past its %1 ms and was stopped"_s.arg(limits.timeoutMs);
        return;
    }
    if (const std::optional<QString> over =
            OutputLimit::check(output, limits.maxOutputBytes, u"the output of "_s + call.context.row.key)) {
        output = *over;
        return;
    }
    if (const std::optional<QString> spent = call.budget->takeBytes(OutputLimit::utf8Size(output)))
        output = u"ERR: "_s + *spent;
}

void LocalDispatcher::start(Call call)
{
    if (call.handle)
        call.handle->markStarted();
    // A step inside a flow answers before its receipt is on disk (group commit); before
    // one that changes the world, what came before it is made durable, or it does not run.
    StoreError predecessors;
    if (!call.topLevel && !call.context.shape && !WorldEffects::ofRow(call.context.row).isEmpty())
        predecessors = m_ledger->flushReceipts();
    const std::shared_ptr<Runner> runner = call.runner;
    const RunContext context = call.context;
    // The runner and the ledger are kept alive by the callback, so replacing a runner or
    // closing the directory mid-call is safe.
    auto finish = [call = std::move(call), ledger = m_ledger](RunResult result) mutable {
        InvocationOutcome &outcome = call.outcome;
        outcome.result = std::move(result);
        outcome.durationMs = call.timer.elapsed();
        if (!outcome.shape)
            bound(call);
        if (outcome.shape) {
            if (call.handle)
                call.handle->finish(std::move(outcome));
            return;
        }
        Receipt &receipt = call.receipt;
        receipt.durationMs = outcome.durationMs;
        receipt.material = outcome.material();
        receipt.status = Receipt::statusFor(receipt.material);
        receipt.outputFingerprint = Receipt::sha256Hex(outcome.result.output);
        issueAndFinish(ledger, std::move(receipt), call.handle, std::move(outcome),
                       !call.topLevel && call.context.request.answerBeforeDurable
                           ? ReceiptGroupCommit::Release::WhenQueued
                           : ReceiptGroupCommit::Release::WhenDurable);
    };
    if (predecessors.isError()) {
        const QString why =
            u"not run: the receipts of the calls before it could not be written: "_s + predecessors.message;
        QTimer::singleShot(0, &m_lookups, [finish, why]() mutable { finish(RunResult::failure(why)); });
        return;
    }
    runner->run(context, std::move(finish));
}
