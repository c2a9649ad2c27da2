#pragma once

#include <QString>

class Clock;

namespace IsoTime {

// ISO-8601 UTC with milliseconds, as the engine stamps `updated_at`: 2026-07-26T04:36:19.832Z
QString nowUtc();
// The same, read from `clock` (the store's, which a test may step).
QString nowUtc(const Clock &clock);
// nowUtc(clock), or one millisecond after `previous` when that is not earlier: a row's
// updated_at must change with every write, even two in one millisecond or from a server
// whose clock runs behind another's, or an If-Match taken between them would pass.
// `previous` in another form (a legacy row's) is not compared.
QString nowUtcAfter(const Clock &clock, const QString &previous);

} // namespace IsoTime
