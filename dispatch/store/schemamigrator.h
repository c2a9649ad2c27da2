#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/store/sqldialect.h"

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

// Brings a directory up to the app's schema with the numbered files of its dialect
// (:/migrations/sqlite, :/migrations/postgresql), in one write transaction, recording
// progress where the dialect keeps it (PRAGMA user_version, schema_migrations). The write
// transaction's lock makes two processes opening one new database migrate it once.
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

    static QList<Migration> bundledMigrations(const SqlDialect &dialect = SqlDialect::sqlite());
    static int latestVersion(const SqlDialect &dialect = SqlDialect::sqlite());

    int currentVersion() const;
    // Migrations not yet applied, in order.
    QList<Migration> pending() const;
    // Applies everything pending, or nothing.
    StoreError migrate();

private:
    StoreError apply(const Migration &migration);
    bool columnExists(const QString &table, const QString &column) const;
    bool hasTable(const QString &table) const;

    QSqlDatabase m_db;
};
