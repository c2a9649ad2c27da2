#pragma once

#include <QByteArray>
#include <QHash>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryFile>
#include <QUrl>

// A real `capdeskctl serve` for a test: started on 127.0.0.1 at the free port serve picks
// (--listen 127.0.0.1:0), waited for until it listens and says where,
// and stopped, killed (a crash mid-edit) or restarted on the same port and file. Its stderr (the access log)
// is kept for assertions.
class ServeProcess final
{
public:
    ServeProcess() = default;
    ~ServeProcess();
    Q_DISABLE_COPY_MOVE(ServeProcess)

    // The capdeskctl this build made, for a test's other commands (init, token create…).
    static QString program();

    // Before start(): serve HTTPS with this certificate and key (--tls-cert, --tls-key);
    // baseUrl() is then an https URL.
    void setTls(const QString &certificateFile, const QString &keyFile);
    // Before start(): a variable serve's environment gets (CREDENTIALS_DIRECTORY…).
    void setEnvironment(const QString &name, const QString &value) { m_environment.insert(name, value); }
    // `extraArguments` go to serve as they are (e.g. {"--dispatch-timeout", "500"}). An
    // empty `ownerKey` leaves CAPDESK_TERMINAL_KEY unset, for a key given another way.
    bool start(const QString &dbPath, const QByteArray &ownerKey, QString *error,
               const QStringList &extraArguments = {});
    QUrl baseUrl() const;
    quint16 port() const { return m_port; }
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    qint64 processId() const { return m_process.processId(); }

    // SIGKILL: no drain, no goodbye, as when the machine or the process dies.
    void kill();
    // SIGTERM: running requests finish, then it exits.
    void stop();
    // The same port, file, key and arguments again (after kill() or stop()).
    bool restart(QString *error);

    // Everything the server wrote to stderr so far (its access log).
    QByteArray standardError();

private:
    // Starts serve on m_port (0: one serve picks) and learns the port it bound.
    bool launch(QString *error);

    QProcess m_process;
    QString m_dbPath;
    QByteArray m_ownerKey;
    QStringList m_extraArguments;
    QStringList m_tlsArguments;
    QHash<QString, QString> m_environment;
    quint16 m_port = 0;
    // stderr goes to a file, so it is complete even while the test's thread is blocked.
    QTemporaryFile m_stderrFile;
};
