#pragma once

#include <QString>

namespace IsoTime {

// ISO-8601 UTC with milliseconds, as the engine stamps `updated_at`: 2026-07-26T04:36:19.832Z
QString nowUtc();

} // namespace IsoTime
