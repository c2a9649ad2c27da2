#pragma once

#include <QString>
#include <QTemporaryDir>

#include <memory>

// A real PostgreSQL server for one test executable: initdb into a temporary folder, then
// pg_ctl start with its socket in that folder and no TCP listener, so nothing else on the
// machine can reach it. Authentication is `trust` for the one role `capdesk`, and fsync
// is off (the data is thrown away; a test of durability sets up its own). initdb refuses
// to run as root, so under root the server runs as the `postgres` account.
// Stopped (immediate) and removed with the object.
class TemporaryPostgres final
{
public:
    // nullptr, with `why`, when no PostgreSQL server binaries are installed or it does
    // not start.
    static std::unique_ptr<TemporaryPostgres> start(QString *why);
    ~TemporaryPostgres();
    Q_DISABLE_COPY_MOVE(TemporaryPostgres)

    // A new, empty database (CREATE DATABASE, a few milliseconds), as the URL Capdesk
    // opens: postgresql://capdesk@:5432/NAME?host=SOCKETDIR. Empty on failure.
    QString createDatabase(QString *why = nullptr);
    // The URL of an existing database `name`.
    QString urlOf(const QString &name) const;
    // Runs `sql` (one or more statements) in database `name` as `role` (by default the
    // superuser), as an outside tool would; returns the error text, empty when it ran.
    QString exec(const QString &name, const QString &sql,
                 const QString &role = QStringLiteral("capdesk")) const;
    // Makes `role` a login role that must give `password` (SCRAM) and the owner of
    // database `name`, for tests of passwords; returns the error text, empty when done.
    QString addPasswordRole(const QString &name, const QString &role, const QString &password) const;
    // The URL of database `name` for another role.
    QString urlOf(const QString &name, const QString &role) const;
    QString socketDir() const { return m_dir.path(); }

private:
    TemporaryPostgres() = default;
    QString runAsServer(const QString &program, const QStringList &arguments) const;

    QTemporaryDir m_dir;
    QString m_binDir;
    bool m_asPostgresUser = false;
    bool m_running = false;
    int m_databases = 0;
};
