#include "tests/support/temporarypostgres.h"

#include "tests/support/processrun.h"

#include <QAtomicInteger>
#include <QCollator>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <unistd.h>

namespace {

// The newest server that Debian's postgresql-NN packages installed.
QString serverBinDir()
{
    QDir versions(QStringLiteral("/usr/lib/postgresql"));
    QStringList names = versions.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCollator numeric;
    numeric.setNumericMode(true);
    std::sort(names.begin(), names.end(),
              [&](const QString &a, const QString &b) { return numeric.compare(a, b) > 0; });
    for (const QString &name : names) {
        const QString bin = versions.filePath(name + QStringLiteral("/bin"));
        if (QFileInfo(bin + QStringLiteral("/initdb")).isExecutable())
            return bin;
    }
    return {};
}

QString connectionName()
{
    static QAtomicInteger<int> counter;
    return QStringLiteral("temporary-postgres-%1").arg(counter.fetchAndAddRelaxed(1));
}

} // namespace

std::unique_ptr<TemporaryPostgres> TemporaryPostgres::start(QString *why)
{
    std::unique_ptr<TemporaryPostgres> server(new TemporaryPostgres);
    server->m_binDir = serverBinDir();
    if (server->m_binDir.isEmpty()) {
        *why = QStringLiteral("no PostgreSQL server is installed (/usr/lib/postgresql/NN/bin/initdb)");
        return nullptr;
    }
    if (!server->m_dir.isValid()) {
        *why = QStringLiteral("cannot make a temporary folder");
        return nullptr;
    }
    server->m_asPostgresUser = geteuid() == 0;
    if (server->m_asPostgresUser) {
        const ProcessRun::Result owned = ProcessRun::run(
            QStringLiteral("chown"), {QStringLiteral("postgres:postgres"), server->m_dir.path()});
        if (owned.exitCode != 0) {
            *why = QStringLiteral("cannot give the folder to the postgres account: ")
                   + QString::fromUtf8(owned.err);
            return nullptr;
        }
    }
    const QString data = server->m_dir.filePath(QStringLiteral("data"));
    QString error = server->runAsServer(
        server->m_binDir + QStringLiteral("/initdb"),
        {QStringLiteral("-D"), data, QStringLiteral("-U"), QStringLiteral("capdesk"), QStringLiteral("-A"),
         QStringLiteral("trust"), QStringLiteral("-E"), QStringLiteral("UTF8"),
         QStringLiteral("--locale=C.UTF-8"), QStringLiteral("--no-sync")});
    if (!error.isEmpty()) {
        *why = QStringLiteral("initdb failed: ") + error;
        return nullptr;
    }
    const QString options =
        QStringLiteral("-k %1 -c listen_addresses='' -c fsync=off -c full_page_writes=off "
                       "-c max_connections=200")
            .arg(server->m_dir.path());
    error = server->runAsServer(server->m_binDir + QStringLiteral("/pg_ctl"),
                                {QStringLiteral("-D"), data, QStringLiteral("-l"),
                                 server->m_dir.filePath(QStringLiteral("server.log")), QStringLiteral("-o"),
                                 options, QStringLiteral("-w"), QStringLiteral("start")});
    if (!error.isEmpty()) {
        *why = QStringLiteral("pg_ctl start failed: ") + error;
        return nullptr;
    }
    server->m_running = true;
    return server;
}

TemporaryPostgres::~TemporaryPostgres()
{
    if (m_running)
        runAsServer(m_binDir + QStringLiteral("/pg_ctl"),
                    {QStringLiteral("-D"), m_dir.filePath(QStringLiteral("data")), QStringLiteral("-m"),
                     QStringLiteral("immediate"), QStringLiteral("-w"), QStringLiteral("stop")});
}

QString TemporaryPostgres::runAsServer(const QString &program, const QStringList &arguments) const
{
    const ProcessRun::Result result =
        m_asPostgresUser ? ProcessRun::run(
            QStringLiteral("runuser"),
            QStringList{QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--"), program}
                + arguments)
                         : ProcessRun::run(program, arguments);
    if (!result.finished)
        return program + QStringLiteral(" did not finish");
    if (result.exitCode != 0)
        return QString::fromUtf8(result.err + result.out).trimmed();
    return {};
}

QString TemporaryPostgres::urlOf(const QString &name) const
{
    return urlOf(name, QStringLiteral("capdesk"));
}

QString TemporaryPostgres::urlOf(const QString &name, const QString &role) const
{
    return QStringLiteral("postgresql://%1@:5432/%2?host=%3").arg(role, name, m_dir.path());
}

QString TemporaryPostgres::exec(const QString &name, const QString &sql, const QString &role) const
{
    const QString connection = connectionName();
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connection);
        db.setHostName(m_dir.path());
        db.setDatabaseName(name);
        db.setUserName(role);
        if (!db.open()) {
            error = db.lastError().text();
        } else {
            QSqlQuery query(db);
            if (!query.exec(sql))
                error = query.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(connection);
    return error;
}

QString TemporaryPostgres::addPasswordRole(const QString &name, const QString &role,
                                           const QString &password) const
{
    // pg_hba.conf takes the first line that matches: this one goes before initdb's trust.
    QFile hba(m_dir.filePath(QStringLiteral("data/pg_hba.conf")));
    if (!hba.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read pg_hba.conf: ") + hba.errorString();
    const QByteArray rules = hba.readAll();
    hba.close();
    if (!hba.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || hba.write("local all " + role.toUtf8() + " scram-sha-256\n" + rules) < 0)
        return QStringLiteral("cannot write pg_hba.conf: ") + hba.errorString();
    hba.close();
    QString quoted = password;
    quoted.replace(u'\'', QStringLiteral("''"));
    return exec(name, QStringLiteral("SET password_encryption = 'scram-sha-256';"
                                     "CREATE ROLE %1 LOGIN PASSWORD '%2';"
                                     "ALTER DATABASE %3 OWNER TO %1;"
                                     "SELECT pg_reload_conf();")
                          .arg(role, quoted, name));
}

QString TemporaryPostgres::createDatabase(QString *why)
{
    const QString name = QStringLiteral("d%1").arg(++m_databases);
    const QString error = exec(QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE %1").arg(name));
    if (!error.isEmpty()) {
        if (why)
            *why = error;
        return {};
    }
    return urlOf(name);
}
