#pragma once

#include "dispatch/call/dispatcher.h"
#include "dispatch/core/dispatchlimits.h"
#include "dispatch/receipts/receipt.h"
#include "dispatch/receipts/receiptgroupcommit.h"
#include "dispatch/runners/runner.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>

#include <memory>

class CallBudget;
class DirectoryLedger;
class DirectoryStore;
class InvocationHandle;
class SecretSource;
struct CapabilityToken;

// Runs invocations in this process against a DirectoryStore, one Runner per `type`. A
// capability token is gated before any runner; every real call's signed receipt is
// committed to the ledger before its handle reports. A caller may delete its handle at any
// time; a late result is then dropped (its receipt is still written). Nothing here waits on
// the keychain: the row's secret is looked up, and the signing key unlocked, asynchronously.
//
// Every call runs under DispatchLimits: a top-level call starts a call tree whose
// CallBudget each nested call takes from (a call past it is refused, with no receipt), an
// output over the byte cap becomes "ERR: output_limit: …", and at the tree's deadline
// the top-level call is cancelled, which stops its flow steps, builtins and http calls.
class LocalDispatcher final : public Dispatcher
{
public:
    LocalDispatcher(std::shared_ptr<const DirectoryStore> store, std::shared_ptr<const SecretSource> secrets,
                    std::shared_ptr<DirectoryLedger> ledger);
    ~LocalDispatcher() override;

    void setRunner(const QString &type, std::unique_ptr<Runner> runner);
    void setLimits(const DispatchLimits &limits) { m_limits = limits; }
    const DispatchLimits &limits() const { return m_limits; }
    InvocationHandle *invoke(const InvocationRequest &request) override;
    // Signs and commits the flow's receipt: its contract fingerprint from the stored row,
    // `material` and the status from the run's output, `duration_ms` its active time.
    InvocationHandle *recordFlowRun(const FlowRunRecord &run) override;

private:
    // One call from its runner's start to its receipt.
    struct Call
    {
        std::shared_ptr<Runner> runner;
        RunContext context;
        InvocationOutcome outcome;
        Receipt receipt;
        QPointer<InvocationHandle> handle;
        QElapsedTimer timer;
        std::shared_ptr<const SecretSource> secret; // what context.secrets points to
        std::shared_ptr<CallBudget> budget;
        bool topLevel = false; // its deadline is the tree's
    };

    // The refusal reason and HTTP status when the request's token may not make this call.
    std::optional<std::pair<QString, int>> gate(const InvocationRequest &request, const Row &row,
                                                QString *actor);
    // The row's secret, when its auth names one, looked up without waiting; then start().
    void lookUpSecretThenStart(Call call);
    void start(Call call);
    // Finishes a call that never started: its receipt could not be signed, or it was
    // stopped while the key was unlocked.
    static void refuseUnstarted(Call call, const QString &reason, int status);
    // The call tree's budget for `request`, or the refusal of its inherited header.
    std::optional<std::shared_ptr<CallBudget>> budgetFor(const InvocationRequest &request,
                                                         QString *error) const;
    void cancelAtDeadline(const Call &call);
    static void bound(Call &call);
    static InvocationHandle *finishLater(InvocationHandle *handle, const InvocationOutcome &outcome);
    // Kept in m_open until it finishes.
    void track(InvocationHandle *handle);
    // Signs and commits `receipt`, then finishes `handle` (if still there) with `outcome`
    // and the receipt, or why it could not be written.
    static void
    issueAndFinish(const std::shared_ptr<DirectoryLedger> &ledger, Receipt receipt,
                   const QPointer<InvocationHandle> &handle, InvocationOutcome outcome,
                   ReceiptGroupCommit::Release release = ReceiptGroupCommit::Release::WhenDurable);

    std::shared_ptr<const DirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    std::shared_ptr<const SecretSource> m_secrets;
    QHash<QString, std::shared_ptr<Runner>> m_runners;
    DispatchLimits m_limits;
    // Calls not yet reported, finished with an error if this dispatcher goes first
    // (the directory was closed), so no caller waits forever.
    QList<QPointer<InvocationHandle>> m_open;
    // The context of the secret lookups under way: destroyed with the dispatcher, which
    // drops them (their handles are finished above).
    QObject m_lookups;
};
