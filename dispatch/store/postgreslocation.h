#pragma once

#include "dispatch/core/storeerror.h"

#include <QList>
#include <QPair>
#include <QString>

// A PostgreSQL directory named as `postgresql://USER@HOST:PORT/DB`, or with the server's
// socket folder as `postgresql://USER@/DB?host=/socket/dir`. The URL is hostile input and
// is checked whole: a password in it is refused (it would end up in shell history,
// settings and titles; the password comes from libpq's PGPASSFILE/.pgpass or from the
// keychain), and only the connection options Capdesk passes on are accepted, each
// range-checked. `sslmode=verify-full` with `sslrootcert=FILE` checks the server.
class PostgresLocation final
{
public:
    static constexpr int kMaxUrlLength = 2048;

    static bool isUrl(const QString &text);
    static StoreResult<PostgresLocation> parse(const QString &url);

    QString user() const { return m_user; }
    // A host name or address, or a socket folder (starting with '/').
    QString host() const { return m_host; }
    int port() const { return m_port; }
    QString databaseName() const { return m_database; }
    // libpq keyword/value options (sslmode, sslrootcert, connect_timeout, …), as given.
    const QList<QPair<QString, QString>> &options() const { return m_options; }

    // The URL as it can be shown: canonical, never holding a secret.
    QString display() const;
    // The keychain entry of this directory's password.
    QString keychainName() const;

private:
    QString m_user;
    QString m_host;
    int m_port = 5432;
    QString m_database;
    QList<QPair<QString, QString>> m_options;
};
