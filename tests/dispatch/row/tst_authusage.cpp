#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/fixturegenerator.h"

#include <QSqlQuery>
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
    void productionShapedDirectoryCountsEveryCredentialedRow();

private:
    static std::shared_ptr<SqlDirectoryStore> storeWith(const QString &path, const QStringList &auths);
};

std::shared_ptr<SqlDirectoryStore> TestAuthUsage::storeWith(const QString &path, const QStringList &auths)
{
    auto opened = SqlDirectoryStore::open(path);
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
    const auto store =
        storeWith(dir.filePath(u"d.db"_s), {u"bearer:A"_s, u"bearer:A"_s, u"basic:B"_s, QString(), u""_s,
                                            u"   "_s, u"query:k=C"_s, u"bearer:A "_s, u"nonsense"_s});
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

void TestAuthUsage::productionShapedDirectoryCountsEveryCredentialedRow()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"gen.db"_s);
    const QString error = FixtureGenerator::makeDatabase(path, 891);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    auto opened = SqlDirectoryStore::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    const auto usage = opened.value()->authUsage();
    QVERIFY(usage.ok());

    QSqlQuery query(opened.value()->database());
    QVERIFY(query.exec(
        u"SELECT COUNT(*), COUNT(DISTINCT auth) FROM directory WHERE trim(coalesce(auth, '')) <> ''"_s));
    QVERIFY(query.next());
    int rows = 0;
    for (const AuthUsage &use : usage.value())
        rows += use.rows;
    QCOMPARE(rows, query.value(0).toInt());
    QCOMPARE(int(usage.value().size()), query.value(1).toInt());
}

QTEST_GUILESS_MAIN(TestAuthUsage)
#include "tst_authusage.moc"
