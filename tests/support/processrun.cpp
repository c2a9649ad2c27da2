#include "tests/support/processrun.h"

#include <QEventLoop>
#include <QProcess>
#include <QTimer>

namespace ProcessRun {

Result run(const QString &program, const QStringList &arguments, const QByteArray &stdinData,
           const QProcessEnvironment &environment, int timeoutMs)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    process.write(stdinData);
    process.closeWriteChannel();
    QEventLoop loop;
    QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
    // Only a program that never started ends the wait here: a write error (the program
    // exited before reading its stdin) leaves it running to its own finish.
    QObject::connect(&process, &QProcess::errorOccurred, &loop, [&loop](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    if (process.state() != QProcess::NotRunning)
        loop.exec();
    Result result;
    result.finished = process.state() == QProcess::NotRunning && process.exitStatus() == QProcess::NormalExit;
    if (!result.finished) {
        process.kill();
        process.waitForFinished(1000);
    } else {
        result.exitCode = process.exitCode();
    }
    // What a crashed or stuck program printed is what tells why.
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace ProcessRun
