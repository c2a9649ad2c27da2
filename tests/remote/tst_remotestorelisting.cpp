#include "remote/serverconnection.h"
#include "tests/remote/remotestorefixture.h"
#include "tests/remote/remotetestsupport.h"
#include "tests/support/fixturegenerator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;

// RemoteDirectoryStore's reads against a real `capdeskctl serve` and against a server that
// implements only SPEC §10's table: rows, searches and summaries, and listings in pages
// where the server pages them and whole where it does not.
class TestRemoteStoreListing : public QObject, private RemoteStoreFixture
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void readers_data() { servers(); }
    void readers();
    void pagingHonoured();
    void pagingIgnored();
    void serverPagingExtension_data();
    void serverPagingExtension();
};

void TestRemoteStoreListing::initTestCase()
{
    startServers();
}

void TestRemoteStoreListing::cleanupTestCase()
{
    m_serve.stop();
}

void TestRemoteStoreListing::readers()
{
    QFETCH(Server, server);
    const auto store = storeFor(server);
    const QString needle = u"quux%1"_s.arg(int(server));
    Row a = documentedRow(uniqueKey("READ_A"), u"fn"_s, u"echo"_s);
    a.content += u"\nmentions the "_s + needle.toUpper();
    a.auth = u"bearer:READ_TOKEN"_s;
    Row b = documentedRow(uniqueKey("READ_B"), u"fn"_s, u"echo"_s);
    b.target = u"echo"_s;
    b.category = needle; // matched by ?q= but not a content hit
    b.auth = u"bearer:READ_TOKEN"_s;
    QVERIFY(store->create(a).ok());
    QVERIFY(store->create(b).ok());

    const StoreResult<Row> fetched = store->row(a.key);
    QVERIFY(fetched.ok());
    QCOMPARE(fetched.value().content, a.content);
    QCOMPARE(fetched.value().auth, a.auth);
    QCOMPARE(fetched.value().createdAt.isEmpty(), false);

    const StoreResult<QList<Row>> some = store->rows({a.key, b.key, u"ZZ_NOT_THERE"_s});
    QVERIFY(some.ok());
    QCOMPARE(some.value().size(), 2);
    QCOMPARE(store->keysWithContent(needle).value(), QStringList{a.key});

    const StoreResult<QList<AuthUsage>> usage = store->authUsage();
    QVERIFY(usage.ok());
    int tokenRows = 0;
    for (const AuthUsage &entry : usage.value())
        tokenRows += entry.auth == u"bearer:READ_TOKEN"_s ? entry.rows : 0;
    QCOMPARE(tokenRows, 2);

    QSet<QString> scanned;
    QVERIFY(!store->scanSummaries([&](const RowSummary &summary) { scanned.insert(summary.key); }).isError());
    QVERIFY(scanned.contains(a.key) && scanned.contains(b.key));
    QCOMPARE(store->location(), urlOf(server).toString());
}

void TestRemoteStoreListing::pagingHonoured()
{
    const QString db = m_dir.filePath(u"paged.db"_s);
    const int rows = 12000;
    QCOMPARE(FixtureGenerator::makeDatabase(db, rows), QString());
    ServeProcess paged;
    QString error;
    QVERIFY2(paged.start(db, kOwnerKey, &error), qPrintable(error));
    RemoteDirectoryStore store(std::make_shared<ServerConnection>(ServerEndpoint{paged.baseUrl(), {}}));

    QStringList first;
    QVERIFY(!store
                 .scanSummaryViews(
                     [&](const RowSummaryView &view) {
                         first.append(QString::fromUtf8(view.key.data(), qsizetype(view.key.size())));
                     },
                     50)
                 .isError());
    QStringList all;
    QVERIFY(!store
                 .scanSummaryViews([&](const RowSummaryView &view) {
                     all.append(QString::fromUtf8(view.key.data(), qsizetype(view.key.size())));
                 })
                 .isError());
    QCOMPARE(all.size(), rows);
    QCOMPARE(QSet<QString>(all.cbegin(), all.cend()).size(), rows);
    QStringList sorted = all;
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(all, sorted); // pages arrive in key order
    QCOMPARE(first, sorted.mid(0, 50));
    // One request for the first page, then ceil(12,000 / 5,000) pages.
    const QByteArray log = paged.standardError();
    QCOMPARE(log.count("GET /api/directory?"),
             1 + (rows + RemoteDirectoryStore::kPageRows - 1) / RemoteDirectoryStore::kPageRows);
    paged.stop();
}

void TestRemoteStoreListing::pagingIgnored()
{
    const auto store = storeFor(Server::Minimal);
    // Created out of key order: a SPEC-only server lists in its own order.
    for (const char *stem : {"PAGE_M", "PAGE_B", "PAGE_Y", "PAGE_A"})
        QVERIFY(store->create(documentedRow(u"ZZ_%1"_s.arg(QLatin1String(stem)), u"fn"_s, u"echo"_s)).ok());
    QStringList server;
    QVERIFY(!store->scanSummaries([&](const RowSummary &summary) { server.append(summary.key); }).isError());
    QStringList sorted = server;
    std::sort(sorted.begin(), sorted.end());

    m_minimal.clearRequests();
    QStringList first;
    QVERIFY(!store
                 ->scanSummaryViews(
                     [&](const RowSummaryView &view) {
                         first.append(QString::fromUtf8(view.key.data(), qsizetype(view.key.size())));
                     },
                     3)
                 .isError());
    QCOMPARE(first, sorted.mid(0, 3));
    QStringList all;
    QVERIFY(!store->scanSummaries([&](const RowSummary &summary) { all.append(summary.key); }).isError());
    QCOMPARE(all, server);
    // The full scan reused the rows the first page brought: one listing in all.
    QCOMPARE(m_minimal.requests("GET").size(), 1);
    // A write in between drops them: the next full scan asks again.
    QVERIFY(!store->scanSummaryViews([](const RowSummaryView &) {}, 3).isError());
    QVERIFY(store->patch(u"ZZ_PAGE_A"_s, {{u"seq"_s, 4}}).ok());
    QVERIFY(!store->scanSummaries([](const RowSummary &) {}).isError());
    QCOMPARE(m_minimal.requests("GET").size(), 3);
}

void TestRemoteStoreListing::serverPagingExtension_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<int>("status");
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<int>("total"); // -1: not a page
    QTest::addColumn<bool>("summary");
    const QStringList all{u"ZZ_PX_A"_s, u"ZZ_PX_B"_s, u"ZZ_PX_C"_s, u"ZZ_PX_D"_s, u"ZZ_PX_E"_s};
    QTest::addRow("SPEC listing") << u"category=pagex"_s << 200 << all << -1 << false;
    QTest::addRow("offset") << u"category=pagex&limit=2&offset=1"_s << 200 << all.mid(1, 2) << 5 << false;
    QTest::addRow("after") << u"category=pagex&limit=2&after=ZZ_PX_D"_s << 200 << all.mid(4) << 5 << false;
    QTest::addRow("summary of a filter") << u"category=pagex&fields=summary"_s << 200 << all << 5 << true;
    QTest::addRow("past the end") << u"category=pagex&limit=2&offset=9"_s << 200 << QStringList() << 5
                                  << false;
    QTest::addRow("bad limit") << u"limit=many"_s << 400 << QStringList() << -1 << false;
    QTest::addRow("bad fields") << u"fields=all"_s << 400 << QStringList() << -1 << false;
}

void TestRemoteStoreListing::serverPagingExtension()
{
    QFETCH(QString, query);
    QFETCH(int, status);
    QFETCH(QStringList, keys);
    QFETCH(int, total);
    QFETCH(bool, summary);
    const auto store = storeFor(Server::Ours);
    for (const char *key : {"ZZ_PX_D", "ZZ_PX_B", "ZZ_PX_E", "ZZ_PX_A", "ZZ_PX_C"}) {
        Row row = documentedRow(QString::fromLatin1(key), u"fn"_s, u"echo"_s);
        row.category = u"pagex"_s;
        if (!store->row(row.key).ok())
            QVERIFY(store->create(row).ok());
    }
    const ServerResponse answer = store->connection()->send("GET", u"/api/directory?"_s + query);
    QCOMPARE(answer.status, status);
    if (status != 200)
        return;
    const QJsonObject listing = QJsonDocument::fromJson(answer.body).object();
    QStringList got;
    for (const QJsonValue &row : listing.value(u"rows"_s).toArray()) {
        got.append(row.toObject().value(u"key"_s).toString());
        QCOMPARE(row.toObject().size(), summary ? 7 : 18);
    }
    QCOMPARE(got, keys);
    QCOMPARE(listing.contains(u"total"_s), total >= 0);
    if (total >= 0)
        QCOMPARE(listing.value(u"total"_s).toInt(), total);
}

QTEST_MAIN(TestRemoteStoreListing)
#include "tst_remotestorelisting.moc"
