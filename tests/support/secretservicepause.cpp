#include "tests/support/secretservicepause.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusReply>
#include <QFile>
#include <QProcess>
#include <QTest>

namespace {

// How long the shell may take to start and stop the daemon.
constexpr int kStopTimeoutMs = 5000;

} // namespace

bool SecretServicePause::pauseFor(int ms, QString *why)
{
    QDBusConnectionInterface *bus = QDBusConnection::sessionBus().interface();
    const QDBusReply<uint> pid =
        bus ? bus->servicePid(QStringLiteral("org.freedesktop.secrets")) : QDBusReply<uint>();
    if (!pid.isValid() || pid.value() == 0) {
        *why = QStringLiteral("no Secret Service owns org.freedesktop.secrets on this session bus");
        return false;
    }
    m_pid = pid.value();
    const QString seconds = QString::number(ms / 1000.0, 'f', 3);
    if (!QProcess::startDetached(QStringLiteral("/bin/sh"),
                                 {QStringLiteral("-c"),
                                  QStringLiteral("kill -STOP \"$0\"; sleep \"$1\"; kill -CONT \"$0\""),
                                  QString::number(m_pid), seconds})) {
        *why = QStringLiteral("could not start /bin/sh to pause the Secret Service");
        return false;
    }
    if (!QTest::qWaitFor([this] { return isPaused(); }, kStopTimeoutMs)) {
        *why = QStringLiteral("the Secret Service (pid %1) did not stop").arg(m_pid);
        return false;
    }
    return true;
}

bool SecretServicePause::isPaused() const
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(m_pid));
    if (m_pid == 0 || !stat.open(QIODevice::ReadOnly))
        return false;
    // "PID (COMM) STATE …": the state follows the last ')', as COMM may hold one.
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close >= 0 && line.mid(close + 2, 1) == "T";
}

bool SecretServicePause::waitUntilResumed(int timeoutMs) const
{
    return QTest::qWaitFor([this] { return !isPaused(); }, timeoutMs);
}
