#pragma once

#include <QCoreApplication>
#include <QString>

// What File → Open PostgreSQL Directory…'s Test Connection tells before anything is
// opened: whether the server lets this user in, and whether the database is a directory,
// an empty database (which opening would make one) or something else. It changes
// nothing: the connection is read-only in the server itself, and no migration runs.
// Blocking; the dialog runs it off the GUI thread.
class PostgresDirectoryProbe final
{
    Q_DECLARE_TR_FUNCTIONS(PostgresDirectoryProbe)

public:
    enum class Found { Directory, EmptyDatabase, Refused };
    struct Result
    {
        Found found = Found::Refused;
        // In plain words, never holding the password.
        QString message;
        qint64 rows = 0;
        qint64 elapsedMs = 0;
    };

    // `url` as PostgresLocation takes it; `password` empty to leave it to PGPASSFILE/.pgpass.
    static Result probe(const QString &url, const QString &password);

private:
    static Result probeOpen(const QString &location, const QString &connection);
};
