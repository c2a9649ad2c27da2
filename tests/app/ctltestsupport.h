#pragma once

#include "tests/support/processrun.h"

#include <QByteArray>
#include <QJsonObject>
#include <QStringList>

// What the capdeskctl tests (tests/app/tst_capdeskctl_*.cpp) share: the binary this build made,
// run as a script runs it, and reading what it printed.
namespace CtlTestSupport {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const;
};

// capdeskctl with these arguments and stdin; exit code -1 when it did not finish.
Run ctl(const QStringList &arguments, const QByteArray &stdinData = {});
// With CAPDESK_TERMINAL_KEY set to `key`, or unset when `key` is empty.
ProcessRun::Result ctlWithKey(const QStringList &arguments, const QByteArray &key,
                              const QByteArray &stdinData = {});
// The codes of a report's "findings".
QStringList findingCodes(const QJsonObject &report);

// The owner key the --server tests serve with.
inline const QByteArray kServedKey = QByteArrayLiteral("tst-ctl-served-owner-key-5e1b7a93c0d2");

} // namespace CtlTestSupport
