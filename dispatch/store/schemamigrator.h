#pragma once

#include "dispatch/core/storeerror.h"

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

// Brings a directory file up to the app's schema with the numbered files under
// :/migrations, in one transaction, recording progress in PRAGMA user_version.
// Production files carry no bookkeeping and may already hold columns that their own
// migrations added, so ADD COLUMN of a column that exists is skipped rather than failed.
class SchemaMigrator final
{
public:
    struct Migration
    {
        int number = 0;
        QString name;
        QString sql;
    };

    explicit SchemaMigrator(const QSqlDatabase &db);

    static QList<Migration> bundledMigrations();
    static int latestVersion();

    int currentVersion() const;
    // Migrations not yet applied, in order.
    QList<Migration> pending() const;
    // Applies everything pending, or nothing.
    StoreError migrate();

private:
    StoreError apply(const Migration &migration);
    bool columnExists(const QString &table, const QString &column) const;

    QSqlDatabase m_db;
};
