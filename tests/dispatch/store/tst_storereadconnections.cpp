#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/storebackend.h"

#include <QScopeGuard>
#include <QSemaphore>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QThread>

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

CAPDESK_TEST_ON_BOTH_BACKENDS(TestStoreReadConnections)
#include "tst_storereadconnections.moc"
