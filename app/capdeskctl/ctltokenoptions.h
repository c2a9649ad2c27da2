#pragma once

#include "app/capdeskctl/ctlarguments.h"

#include <QDateTime>
#include <QString>

// What `token create`'s options say about the token, checked before the directory is
// opened: a mistake in them is a usage error that names the option as it was typed, not
// the stored field (`risk_ceiling`) the token store would name after opening the file.
namespace CtlTokenOptions {

// The first mistake in `args`, as a usage message, or "" when they can make a token.
QString mistake(const CtlArguments &args, const QDateTime &nowUtc);

} // namespace CtlTokenOptions
