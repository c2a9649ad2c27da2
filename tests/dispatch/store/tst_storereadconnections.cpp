#include "dispatch/store/postgresdirectoryengine.h"
#include "dispatch/store/postgreslocation.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/store/threadreadconnections.h"
#include "tests/support/storebackend.h"
#include "tests/support/temporarypostgres.h"

#include <QScopeGuard>
#include <QSemaphore>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QThread>
#include <QUrl>

#include <memory>

// Reads from threads other than the store's: which connection each gets, and when it goes.
// Every case runs on a SQLite file and on a database of a real PostgreSQL server.
class TestStoreReadConnections : public QObject
{
    Q_OBJECT

public:
    explicit TestStoreReadConnections(StoreBackend::Kind kind) : m_backend(kind) {}

private slots:
    void initTestCase();
    void workerReadsKeepAConnectionWhereTheEngineSaysSo();
    void keptConnectionsCloseWithTheStore();
    void aKeptConnectionTheServerDroppedIsOpenedAgain();

private:
    StoreBackend m_backend;
};

void TestStoreReadConnections::initTestCase()
{
    qInfo("engine: %s", qPrintable(m_backend.name()));
    QVERIFY2(m_backend.start(), "the PostgreSQL server of this run did not start (see the warning above)");
}

namespace {

// Reads on `store` through withReadConnection and returns the connection's name; the read
// fails after it when `fail`.
QString readConnectionName(const SqlDirectoryStore &store, bool fail = false)
{
    QString name;
    const StoreError error = store.withReadConnection([&](QSqlDatabase &db) {
        name = db.connectionName();
        QSqlQuery query(db);
        if (!query.exec(QStringLiteral("SELECT count(*) FROM directory")) || !query.next())
            return StoreError::make(StoreError::Kind::Io, query.lastError().text());
        return fail ? StoreError::make(StoreError::Kind::Io, QStringLiteral("a read that failed"))
                    : StoreError::none();
    });
    return error.isError() && !fail ? QString() : name;
}

} // namespace

// PostgreSQL's connecting costs round trips, so a worker keeps its read connection until
// the thread ends or a read fails; SQLite's costs a file open, so each read has its own.
void TestStoreReadConnections::workerReadsKeepAConnectionWhereTheEngineSaysSo()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(opened.ok());
    const SqlDirectoryStore &store = *opened.value();
    QStringList names;
    std::unique_ptr<QThread> worker(QThread::create([&] {
        names << readConnectionName(store) << readConnectionName(store) << readConnectionName(store, true)
              << readConnectionName(store);
    }));
    worker->start();
    QVERIFY(worker->wait(60000));
    QCOMPARE(names.size(), 4);
    QVERIFY(!names.contains(QString()));
    if (m_backend.kind() == StoreBackend::Kind::Postgres) {
        QCOMPARE(names.at(1), names.at(0));
        QCOMPARE(names.at(2), names.at(0));
        QVERIFY2(names.at(3) != names.at(2), "a connection whose read failed was used again");
    } else {
        QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
    }
    for (const QString &name : std::as_const(names))
        QVERIFY2(!QSqlDatabase::connectionNames().contains(name),
                 qPrintable(name + QStringLiteral(" outlived its thread")));
}

void TestStoreReadConnections::keptConnectionsCloseWithTheStore()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(opened.ok());
    std::shared_ptr<SqlDirectoryStore> store = std::move(opened.value());
    QString name;
    QSemaphore read;
    QSemaphore storeGone;
    std::unique_ptr<QThread> worker(QThread::create([&] {
        name = readConnectionName(*store);
        read.release();
        storeGone.acquire();
    }));
    worker->start();
    const auto finish = qScopeGuard([&] {
        storeGone.release();
        worker->wait();
    });
    QVERIFY(read.tryAcquire(1, 60000));
    QVERIFY(!name.isEmpty());
    store.reset();
    QVERIFY2(!QSqlDatabase::connectionNames().contains(name),
             qPrintable(name + QStringLiteral(" outlived its store")));
}

// A server restart (or an idle timeout) drops the connection a worker keeps. One idle
// for the check's time is asked first, so the next read opens a new one rather than
// failing; here the check runs after any idle time at all.
void TestStoreReadConnections::aKeptConnectionTheServerDroppedIsOpenedAgain()
{
    if (m_backend.kind() != StoreBackend::Kind::Postgres)
        QSKIP("SQLite keeps no read connection");
    const QString url = m_backend.freshLocation();
    const StoreResult<PostgresLocation> location = PostgresLocation::parse(url);
    QVERIFY(location.ok());
    const PostgresDirectoryEngine engine(location.value(), {});
    ThreadReadConnections connections(engine, 0);
    auto read = [&connections](QString *name) {
        return connections.read([name](QSqlDatabase &db) {
            *name = db.connectionName();
            QSqlQuery query(db);
            return query.exec(QStringLiteral("SELECT 1"))
                       ? StoreError::none()
                       : StoreError::make(StoreError::Kind::Io, query.lastError().text());
        });
    };
    QString first;
    QString second;
    StoreError afterDrop;
    QSemaphore readOnce;
    QSemaphore dropped;
    std::unique_ptr<QThread> worker(QThread::create([&] {
        if (read(&first).isError())
            first.clear();
        readOnce.release();
        dropped.acquire();
        afterDrop = read(&second);
    }));
    worker->start();
    const auto finish = qScopeGuard([&] {
        dropped.release();
        worker->wait();
    });
    QVERIFY(readOnce.tryAcquire(1, 60000));
    QVERIFY(!first.isEmpty());
    // As a restart does to every session: the server ends the worker's.
    const QString database = QUrl(url).path().mid(1);
    QCOMPARE(m_backend.postgres()->exec(database,
                                        QStringLiteral("SELECT pg_terminate_backend(pid) FROM "
                                                       "pg_stat_activity WHERE datname = current_database() "
                                                       "AND pid <> pg_backend_pid()")),
             QString());
    dropped.release();
    QVERIFY(worker->wait(60000));
    QVERIFY2(!afterDrop.isError(), qPrintable(afterDrop.message));
    QVERIFY2(second != first, "the dropped connection was read from again");
}

CAPDESK_TEST_ON_BOTH_BACKENDS(TestStoreReadConnections)
#include "tst_storereadconnections.moc"
