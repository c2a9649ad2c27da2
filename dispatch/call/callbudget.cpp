#include "dispatch/call/callbudget.h"

#include <QList>

using namespace Qt::StringLiterals;

namespace {

// A header value larger than any budget this build would give is no less a lowering.
constexpr qint64 largestValue = qint64(1) << 53;

} // namespace

CallBudget::CallBudget(const DispatchLimits &limits)
    : m_limits(limits), m_callsLeft(limits.maxTreeCalls), m_bytesLeft(limits.maxTreeBytes),
      m_deadline(qMax(0, limits.timeoutMs))
{}

std::optional<std::shared_ptr<CallBudget>>
CallBudget::fromHeader(const QByteArray &header, const DispatchLimits &limits, QString *error)
{
    auto budget = std::make_shared<CallBudget>(limits);
    if (header.trimmed().isEmpty())
        return budget;
    bool sawCalls = false;
    const QList<QByteArray> fields = header.split(';');
    for (const QByteArray &field : fields) {
        const qsizetype equals = field.indexOf('=');
        const QByteArray name = field.left(equals).trimmed();
        bool ok = false;
        const qint64 value = equals < 0 ? -1 : field.mid(equals + 1).trimmed().toLongLong(&ok);
        if (!ok || value < 0 || value > largestValue) {
            *error = u"call_budget: the %1 header's field '%2' is not name=number"_s.arg(
                QLatin1String(headerName), QString::fromLatin1(name.left(32)));
            return std::nullopt;
        }
        if (name == "calls") {
            budget->m_callsLeft = int(qMin<qint64>(budget->m_callsLeft, value));
            budget->m_limits.maxTreeCalls = budget->m_callsLeft;
            sawCalls = true;
        } else if (name == "bytes") {
            budget->m_bytesLeft = qMin(budget->m_bytesLeft, value);
            budget->m_limits.maxTreeBytes = budget->m_bytesLeft;
        } else if (name == "ms") {
            if (value < budget->m_deadline.remainingTime()) {
                budget->m_deadline.setRemainingTime(value);
                budget->m_limits.timeoutMs = int(value);
            }
        } else if (name == "depth") {
            budget->m_inheritedDepth = int(qMin<qint64>(value, limits.flow.maxDepth + 1));
        }
    }
    if (!sawCalls) {
        *error = u"call_budget: the %1 header names no calls"_s.arg(QLatin1String(headerName));
        return std::nullopt;
    }
    return budget;
}

QByteArray CallBudget::header(int depth) const
{
    return "calls=" + QByteArray::number(m_callsLeft) + "; bytes=" + QByteArray::number(m_bytesLeft)
           + "; ms=" + QByteArray::number(qMax<qint64>(0, m_deadline.remainingTime()))
           + "; depth=" + QByteArray::number(depth);
}

std::optional<QString> CallBudget::takeCalls(int count)
{
    if (expired())
        return u"dispatch_timeout: the call tree ran past its %1 ms"_s.arg(m_limits.timeoutMs);
    if (count > m_callsLeft) {
        return u"call_budget: the call tree may make %1 calls in all, and %2 are left"_s
            .arg(m_limits.maxTreeCalls)
            .arg(m_callsLeft);
    }
    m_callsLeft -= count;
    return std::nullopt;
}

std::optional<QString> CallBudget::takeBytes(qint64 bytes)
{
    if (bytes > m_bytesLeft) {
        m_bytesLeft = 0;
        return u"call_budget: the call tree's outputs passed the %1 bytes allowed in all"_s.arg(
            m_limits.maxTreeBytes);
    }
    m_bytesLeft -= bytes;
    return std::nullopt;
}
