#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// A child process run to completion for a test: capdeskctl, or a test re-running itself
// in another environment. It waits in an event loop rather than waitForFinished(), so a
// server the test runs in this thread keeps answering the child.
namespace ProcessRun {

struct Result
{
    bool finished = false; // false: it crashed, or did not end within the time limit
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result run(const QString &program, const QStringList &arguments, const QByteArray &stdinData = {},
           const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment(),
           int timeoutMs = 60000);

} // namespace ProcessRun
