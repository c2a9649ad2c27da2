#pragma once

#include "tests/support/temporarypostgres.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

// The two engines a store test runs on. A test class that takes a StoreBackend in its
// constructor and asks it for fresh locations runs every case on both, through
// CAPDESK_TEST_ON_BOTH_BACKENDS: the same suite is the SQLite test and the PostgreSQL test.
class StoreBackend final
{
public:
    enum class Kind { Sqlite, Postgres };

    explicit StoreBackend(Kind kind) : m_kind(kind) {}

    Kind kind() const { return m_kind; }
    QString name() const
    {
        return m_kind == Kind::Sqlite ? QStringLiteral("SQLite") : QStringLiteral("PostgreSQL");
    }

    // Call from initTestCase(): starts the PostgreSQL server of the run. False, with the
    // reason as the test's failure, when it cannot start: the README's test command installs
    // PostgreSQL, so a missing server is a broken set-up, not a skip.
    bool start()
    {
        if (m_kind == Kind::Sqlite)
            return true;
        QString why;
        m_postgres = TemporaryPostgres::start(&why);
        if (!m_postgres)
            qWarning("%s", qPrintable(why));
        return m_postgres != nullptr;
    }

    // A location no directory is at yet: a file path, or a new empty database's URL.
    QString freshLocation()
    {
        if (m_kind == Kind::Sqlite)
            return m_dir.filePath(QStringLiteral("d%1.db").arg(++m_counter));
        QString why;
        const QString url = m_postgres->createDatabase(&why);
        if (url.isEmpty())
            qWarning("cannot create a database: %s", qPrintable(why));
        return url;
    }

    TemporaryPostgres *postgres() const { return m_postgres.get(); }

private:
    Kind m_kind;
    QTemporaryDir m_dir;
    int m_counter = 0;
    std::unique_ptr<TemporaryPostgres> m_postgres;
};

// main() for a test class constructed from a StoreBackend::Kind: every case runs on
// SQLite, then on PostgreSQL; the exit code counts the failures of both.
#define CAPDESK_TEST_ON_BOTH_BACKENDS(TestClass)                                                             \
    int main(int argc, char *argv[])                                                                         \
    {                                                                                                        \
        QCoreApplication app(argc, argv);                                                                    \
        int failures = 0;                                                                                    \
        for (const StoreBackend::Kind kind : {StoreBackend::Kind::Sqlite, StoreBackend::Kind::Postgres}) {   \
            TestClass test(kind);                                                                            \
            failures += QTest::qExec(&test, argc, argv);                                                     \
        }                                                                                                    \
        return failures;                                                                                     \
    }
