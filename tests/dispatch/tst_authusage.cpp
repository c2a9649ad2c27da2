#include "fixturegenerator.h"
#include "sqlitedirectorystore.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace Qt::StringLiterals;

// DirectoryStore::authUsage(): the distinct non-blank auth texts and how many rows use
// each, which the Secrets dialog turns into secret names.
class TestAuthUsage : public QObject
{
    Q_OBJECT

private slots:
    void countsDistinctNonBlankAuth();
    void worksFromAWorkerThread();
    void productionSizedDirectoryIsQuick();

private:
    static std::shared_ptr<SqliteDirectoryStore> storeWith(const QString &path, const QStringList &auths);
};

std::shared_ptr<SqliteDirectoryStore> TestAuthUsage::storeWith(const QString &path, const QStringList &auths)
{
    auto opened = SqliteDirectoryStore::open(path);
    if (!opened.ok())
        return nullptr;
    QList<Row> rows;
    for (int i = 0; i < auths.size(); ++i) {
        Row row;
        row.key = u"ROW_%1"_s.arg(i);
        row.type = u"http"_s;
        row.target = u"GET https://example.com/"_s;
        row.auth = auths[i];
        row.updatedAt = u"2026-01-02T03:04:05.678Z"_s;
        row.createdAt = row.updatedAt;
        rows.append(row);
    }
    if (opened.value()->importRows(rows).isError())
        return nullptr;
    return opened.value();
}

void TestAuthUsage::countsDistinctNonBlankAuth()
{
    QTemporaryDir dir;
    // A null QString is SQL NULL; blank texts name nothing either.
    const auto store = storeWith(dir.filePath(u"d.db"_s),
                                 {u"bearer:A"_s, u"bearer:A"_s, u"basic:B"_s, QString(), u""_s, u"   "_s,
                                  u"query:k=C"_s, u"bearer:A "_s, u"nonsense"_s});
    QVERIFY(store);
    const StoreResult<QList<AuthUsage>> usage = store->authUsage();
    QVERIFY2(usage.ok(), qPrintable(usage.error().message));
    QList<QPair<QString, int>> seen;
    for (const AuthUsage &use : usage.value())
        seen.append({use.auth, use.rows});
    // Grouped by the exact text: the inventory, not SQL, decides that "bearer:A " is A.
    const QList<QPair<QString, int>> expected{
        {u"basic:B"_s, 1}, {u"bearer:A"_s, 2}, {u"bearer:A "_s, 1}, {u"nonsense"_s, 1}, {u"query:k=C"_s, 1}};
    QCOMPARE(seen, expected);
}

void TestAuthUsage::worksFromAWorkerThread()
{
    QTemporaryDir dir;
    const auto store = storeWith(dir.filePath(u"d.db"_s), {u"bearer:A"_s, u"basic:B"_s});
    QVERIFY(store);
    int names = -1;
    QThread *worker = QThread::create([&] {
        const auto usage = store->authUsage();
        names = usage.ok() ? int(usage.value().size()) : -1;
    });
    worker->start();
    QVERIFY(worker->wait(10000));
    delete worker;
    QCOMPARE(names, 2);
}

void TestAuthUsage::productionSizedDirectoryIsQuick()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"big.db"_s);
    const QString error = FixtureGenerator::makeDatabase(path, 100000);
    if (!error.isEmpty())
        QSKIP(qPrintable(error));
    auto opened = SqliteDirectoryStore::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    QElapsedTimer timer;
    timer.start();
    const auto usage = opened.value()->authUsage();
    const qint64 elapsed = timer.elapsed();
    QVERIFY(usage.ok());
    QVERIFY(!usage.value().isEmpty());
    qInfo("authUsage over 100,000 rows: %lld ms, %lld distinct auth texts", elapsed,
          qint64(usage.value().size()));
    // It runs on the GUI thread when the Secrets dialog opens: it must stay a blink.
    QVERIFY2(elapsed < 500, qPrintable(u"%1 ms"_s.arg(elapsed)));
}

QTEST_GUILESS_MAIN(TestAuthUsage)
#include "tst_authusage.moc"
