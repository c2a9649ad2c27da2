#include "dispatch/runners/builtins/timebuiltins.h"

#include "dispatch/runners/builtins/builtinregistry.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QThread>
#include <QTimeZone>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 maxSleepMs = 10'000;
// How long a cancelled sleep may go on before it notices.
constexpr qint64 cancelPollMs = 10;

// {"now","today","time","zone","iso"} for one instant, in the article's member order:
// now is Pacific local time with milliseconds and the offset in force, today and time are
// the Pacific calendar date and wall-clock time, iso is the same instant in UTC as the
// engine stamps updated_at.
QString now(const BuiltinCall &)
{
    const QTimeZone pacific("America/Los_Angeles");
    if (!pacific.isValid())
        return u"ERR: now: the time zone America/Los_Angeles is not installed"_s;
    const QDateTime utc = QDateTime::currentDateTimeUtc();
    const QDateTime local = utc.toTimeZone(pacific);
    return uR"({"now":"%1","today":"%2","time":"%3","zone":"America/Los_Angeles","iso":"%4"})"_s.arg(
        local.toString(Qt::ISODateWithMs), local.toString(u"yyyy-MM-dd"), local.toString(u"HH:mm:ss"),
        utc.toString(Qt::ISODateWithMs));
}

// Waits arg 1 milliseconds, capped at ten seconds, and gives up early when the call is
// cancelled, so a cancelled flow frees its worker thread within a poll interval.
QString sleepMs(const BuiltinCall &call)
{
    bool ok = false;
    const qint64 requested = call.arg(0).trimmed().toLongLong(&ok);
    if (!ok || requested < 0)
        return u"ERR: sleep_ms: not a number of milliseconds: "_s + call.arg(0);
    const qint64 ms = std::min(requested, maxSleepMs);

    const QDeadlineTimer deadline(ms, Qt::PreciseTimer);
    while (!deadline.hasExpired()) {
        if (call.isCancelled())
            return u"ERR: cancelled"_s;
        QThread::msleep(
            static_cast<unsigned long>(std::clamp<qint64>(deadline.remainingTime(), 0, cancelPollMs)));
    }
    return call.isCancelled() ? u"ERR: cancelled"_s : u"slept %1 ms"_s.arg(ms);
}

} // namespace

void registerTimeBuiltins(BuiltinRegistry &registry)
{
    registry.add(u"now"_s, now, u"The current time as {now, today, time, zone, iso}, Pacific time"_s);
    registry.add(u"sleep_ms"_s, sleepMs,
                 u"Waits arg 1 milliseconds (at most 10,000); for concurrency tests"_s,
                 BuiltinRegistry::Timing::Waits);
}
