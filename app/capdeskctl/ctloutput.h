#pragma once

#include "dispatch/core/storeerror.h"

#include <QJsonObject>
#include <QJsonValue>

#include <cstdio>

// Exit codes of SPEC §11 and the JSON that goes with them.
namespace CtlOutput {

// Unreachable (5) is ours, not SPEC §11's: a script can tell "the server did not answer"
// (retry later) from every answer the server gave. A refused owner key is Refused, as
// SPEC §11 files auth under 4.
enum ExitCode { Ok = 0, Findings = 1, Usage = 2, NotFound = 3, Refused = 4, Unreachable = 5 };

int exitCodeFor(const StoreError &error);

void printJson(const QJsonValue &value);
void printRaw(const QByteArray &bytes);
// `{"ok":false,"error":…}` on stdout, the message on stderr; returns the exit code
// (the error's own, unless one is given).
int fail(const StoreError &error, int exitCode = -1);
// What usage() answers, passed up to CtlCommands::run(), which follows the message with
// the usage of the command given (the whole usage when none was) and exits with Usage.
// An error fail() reports with Usage shows its message alone: a unit's journal should
// show what is wrong, not a synopsis.
constexpr int UsageWithSynopsis = 0x100 | Usage;

// "capdeskctl: MESSAGE" on stderr: with the JSON on stdout piped away, a person at a
// terminal still sees why.
void note(const QString &message);
// The message on stderr (none when empty); returns UsageWithSynopsis.
int usage(const QString &message = {});

} // namespace CtlOutput
