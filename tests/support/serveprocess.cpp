#include "tests/support/serveprocess.h"

#include <QEventLoop>
#include <QFile>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTimer>

namespace {

// The port in serve's {"ok":true,"listening":"http://127.0.0.1:PORT",…}, once it is all there:
// the port serve bound, which start() and restart() then hold to.
quint16 listeningPort(const QByteArray &out)
{
    static const QRegularExpression listening(
        QStringLiteral(R"re("listening"\s*:\s*"https?://[^"]*:(\d+)")re"));
    const QRegularExpressionMatch match = listening.match(QString::fromUtf8(out));
    return match.hasMatch() ? match.captured(1).toUShort() : 0;
}

} // namespace

QString ServeProcess::program()
{
    return QStringLiteral(CAPDESKCTL_PATH);
}

ServeProcess::~ServeProcess()
{
    stop();
}

void ServeProcess::setTls(const QString &certificateFile, const QString &keyFile)
{
    m_tlsArguments = {QStringLiteral("--tls-cert"), certificateFile, QStringLiteral("--tls-key"), keyFile};
}

bool ServeProcess::start(const QString &dbPath, const QByteArray &ownerKey, QString *error,
                         const QStringList &extraArguments)
{
    m_dbPath = dbPath;
    m_ownerKey = ownerKey;
    m_extraArguments = extraArguments;
    if (!m_stderrFile.open()) {
        if (error)
            *error = QStringLiteral("cannot create a file for serve's stderr");
        return false;
    }
    m_process.setStandardErrorFile(m_stderrFile.fileName(), QIODevice::Append);
    // Port 0: serve binds a free port and names it, so no port is guessed and raced for.
    m_port = 0;
    return launch(error);
}

bool ServeProcess::launch(QString *error)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (m_ownerKey.isEmpty())
        environment.remove(QStringLiteral("CAPDESK_TERMINAL_KEY"));
    else
        environment.insert(QStringLiteral("CAPDESK_TERMINAL_KEY"), QString::fromLatin1(m_ownerKey));
    for (auto it = m_environment.cbegin(); it != m_environment.cend(); ++it)
        environment.insert(it.key(), it.value());
    m_process.setProcessEnvironment(environment);
    m_process.start(program(),
                    QStringList{QStringLiteral("serve"), QStringLiteral("--db"), m_dbPath,
                                QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(m_port)}
                        + m_tlsArguments + m_extraArguments);
    // serve prints {"ok":true,"listening":…} once its socket is bound.
    QEventLoop loop;
    QByteArray out;
    quint16 bound = 0;
    QObject::connect(&m_process, &QProcess::readyReadStandardOutput, &loop, [&] {
        out += m_process.readAllStandardOutput();
        bound = listeningPort(out);
        if (bound != 0)
            loop.quit();
    });
    QObject::connect(&m_process, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&m_process, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
    QTimer::singleShot(20000, &loop, &QEventLoop::quit);
    if (m_process.state() != QProcess::NotRunning || m_process.waitForStarted(5000))
        loop.exec();
    QObject::disconnect(&m_process, nullptr, &loop, nullptr);
    if (bound != 0 && m_process.state() == QProcess::Running) {
        m_port = bound;
        return true;
    }
    if (error)
        *error = QStringLiteral("capdeskctl serve did not start: %1 %2")
                     .arg(QString::fromUtf8(out), QString::fromUtf8(standardError()));
    kill();
    return false;
}

QUrl ServeProcess::baseUrl() const
{
    return QUrl(QStringLiteral("%1://127.0.0.1:%2")
                    .arg(m_tlsArguments.isEmpty() ? QLatin1String("http") : QLatin1String("https"))
                    .arg(m_port));
}

void ServeProcess::kill()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.kill();
    m_process.waitForFinished(5000);
}

void ServeProcess::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(10000))
        kill();
}

bool ServeProcess::restart(QString *error)
{
    stop();
    return launch(error);
}

QByteArray ServeProcess::standardError()
{
    QFile log(m_stderrFile.fileName());
    return log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
}
