#pragma once

#include <QString>

// Identifiers of SPEC §6: `inv_` + 10 and `t_` + 8 lowercase base-36 characters, from the
// system's cryptographic random source so they cannot be guessed.
namespace InvocationIds {

QString newInvocationId();
QString newTrace();
bool isInvocationId(const QString &text);
bool isTrace(const QString &text);

} // namespace InvocationIds
