#pragma once

#include "dispatch/core/dispatchlimits.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QString>

#include <memory>
#include <optional>

// What is left of one call tree's budget (DispatchLimits): calls, output bytes and time.
// Every invocation in the tree shares it through InvocationRequest::budget, so a deep or
// wide tree runs out as a whole, not per nested flow. An http call to a Capdesk server
// carries the remainder in the Capdesk-Call-Budget header, which that server's tree can
// only be lowered by (LocalDispatcher reads it), so a self-call is no fresh start.
// Used on the dispatcher's thread only.
class CallBudget final
{
public:
    static constexpr char headerName[] = "Capdesk-Call-Budget";

    explicit CallBudget(const DispatchLimits &limits);

    // The budget `limits` give, lowered by a Capdesk-Call-Budget header's values, or the
    // reason the header is refused. An empty header lowers nothing.
    static std::optional<std::shared_ptr<CallBudget>>
    fromHeader(const QByteArray &header, const DispatchLimits &limits, QString *error);
    // "calls=N; bytes=N; ms=N; depth=D": what a nested call made at `depth` may still use.
    QByteArray header(int depth) const;
    // The depth a header's call runs at (0 without a header): nested flows count from it.
    int inheritedDepth() const { return m_inheritedDepth; }

    // The limits in force: the dispatcher's, with a header's lower calls, bytes and ms in
    // their place, so every refusal quotes the budget this tree was given.
    const DispatchLimits &limits() const { return m_limits; }
    int callsLeft() const { return m_callsLeft; }
    qint64 bytesLeft() const { return m_bytesLeft; }
    bool expired() const { return m_deadline.hasExpired(); }
    qint64 remainingMs() const { return m_deadline.remainingTime(); }

    // Takes `count` calls, or none and says why ("call_budget: …").
    std::optional<QString> takeCalls(int count);
    // Counts one output against the tree's bytes; the refusal once they are spent.
    std::optional<QString> takeBytes(qint64 bytes);

private:
    DispatchLimits m_limits;
    int m_callsLeft;
    qint64 m_bytesLeft;
    QDeadlineTimer m_deadline;
    int m_inheritedDepth = 0;
};
