#pragma once

#include <QString>

class Clock;

namespace IsoTime {

// ISO-8601 UTC with milliseconds, as the engine stamps `updated_at`: 2026-07-26T04:36:19.832Z
QString nowUtc();
// The same, read from `clock` (the store's, which a test may step).
QString nowUtc(const Clock &clock);

} // namespace IsoTime
