#pragma once

#include "dispatch/store/directoryengine.h"
#include "dispatch/store/postgreschangefeed.h"
#include "dispatch/store/postgreslocation.h"

#include <QMutex>

#include <optional>

// A directory in a PostgreSQL database, shared by every process that opens it (several
// `capdeskctl serve`, the GUI, the CLI). Connections go through Qt's QPSQL driver (libpq).
// The password is never in the URL: it comes from `passwords` (the keychain entry
// PostgresLocation::keychainName(), KeychainPasswords), else libpq finds it (PGPASSFILE,
// ~/.pgpass) or the server needs none. Every connection sets synchronous_commit=on and reads it back, so a
// COMMIT returns only once it is durable on the server.
class PostgresDirectoryEngine final : public DirectoryEngine
{
public:
    PostgresDirectoryEngine(PostgresLocation location, DatabasePasswordLookup passwords);

    QString location() const override { return m_location.display(); }
    StoreError openConnection(const QString &name, bool readOnly) const override;
    bool keepsReadConnections() const override { return true; }
    StoreError checkBeforeOpening() const override { return StoreError::none(); }
    StoreError prepare(QSqlDatabase &db) const override;
    StoreError scanSummaries(QSqlDatabase &db, const std::function<void(const RowSummaryView &)> &sink,
                             int firstByKey) const override;
    StoreError scanRows(QSqlDatabase &db, bool byKey,
                        const std::function<bool(Row &&row)> &each) const override;
    StoreResult<DirectoryChanges> changesSince(const QByteArray &cursor) const override;
    // Each poll is a round trip to the database server.
    int changePollIntervalMs() const override { return 2000; }

private:
    QString password() const;

    PostgresLocation m_location;
    DatabasePasswordLookup m_passwords;
    PostgresChangeFeed m_feed;
    mutable QMutex m_passwordMutex;
    mutable std::optional<QString> m_password; // looked up once, kept in memory only
};
