#pragma once

#include <QString>

// The line `invoke` writes to stderr when nothing ran. The gate's reasons are SPEC §7's
// literal codes, kept as they are on stdout for scripts; a person reading the terminal
// also gets what the code means and what would let the call through.
namespace CtlRefusalNote {

// "refused, nothing ran: REASON", with a sentence after a gate reason it knows; a row
// that is not there is said as that.
QString forReason(const QString &reason);

} // namespace CtlRefusalNote
