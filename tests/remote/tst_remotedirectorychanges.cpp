#include "remote/remotedirectorystore.h"
#include "remote/serverconnection.h"
#include "tests/remote/remotetestsupport.h"
#include "tests/support/minimalserver.h"
#include "tests/support/processrun.h"
#include "tests/support/serveprocess.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("tst-remote-changes-owner-key-9c41e7");

enum class Server { Ours, Plain, PlainWithETag };
enum class Change { Create, Patch, Delete };

QStringList keysOf(const QList<RowSummary> &summaries)
{
    QStringList keys;
    for (const RowSummary &summary : summaries)
        keys.append(summary.key);
    keys.sort();
    return keys;
}

} // namespace

Q_DECLARE_METATYPE(Server)
Q_DECLARE_METATYPE(Change)

// RemoteDirectoryStore::changesSince() against `capdeskctl serve` (deltas by since_seq)
// and against plain SPEC §10 servers, with and without ETag (complete listings, 304).
class TestRemoteDirectoryChanges : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void baselineThenNothing_data() { servers(); }
    void baselineThenNothing();
    void anotherClientsWritesAppear_data();
    void anotherClientsWritesAppear();
    void garbledCursorsAreCompleteListings_data();
    void garbledCursorsAreCompleteListings();
    void eachPollIsOneRequest_data() { servers(); }
    void eachPollIsOneRequest();
    void intervalsFollowTheServerKind_data();
    void intervalsFollowTheServerKind();
    void aProfilesIntervalWinsOverTheServerKind_data() { servers(); }
    void aProfilesIntervalWinsOverTheServerKind();
    void aSequenceCursorMeetingAPlainServerFallsBack();
    void capdeskctlWritesFromOtherProcesses();
    void aServerThatIsGoneIsUnreachable();

private:
    void servers();
    QUrl urlOf(Server server) const;
    std::shared_ptr<RemoteDirectoryStore> storeFor(Server server, int pollIntervalMs = 0) const;
    QByteArray baseline(RemoteDirectoryStore &store);
    QString uniqueKey() { return u"ZZ_FEED_%1"_s.arg(++m_keys); }

    QTemporaryDir m_dir;
    QString m_db;
    ServeProcess m_serve;
    MinimalServer m_plain{kOwnerKey};
    MinimalServer m_tagged{kOwnerKey};
    int m_keys = 0;
};

void TestRemoteDirectoryChanges::servers()
{
    QTest::addColumn<Server>("server");
    QTest::addRow("capdeskctl serve") << Server::Ours;
    QTest::addRow("plain server") << Server::Plain;
    QTest::addRow("plain server with ETag") << Server::PlainWithETag;
}

QUrl TestRemoteDirectoryChanges::urlOf(Server server) const
{
    switch (server) {
    case Server::Ours:
        return m_serve.baseUrl();
    case Server::Plain:
        return m_plain.baseUrl();
    case Server::PlainWithETag:
        break;
    }
    return m_tagged.baseUrl();
}

std::shared_ptr<RemoteDirectoryStore> TestRemoteDirectoryChanges::storeFor(Server server,
                                                                           int pollIntervalMs) const
{
    ServerEndpoint endpoint{urlOf(server), QString::fromLatin1(kOwnerKey), 10000};
    endpoint.changePollIntervalMs = pollIntervalMs;
    return std::make_shared<RemoteDirectoryStore>(std::make_shared<ServerConnection>(endpoint));
}

QByteArray TestRemoteDirectoryChanges::baseline(RemoteDirectoryStore &store)
{
    const StoreResult<DirectoryChanges> start = store.changesSince(QByteArray());
    if (!start.ok())
        qWarning("baseline: %s", qPrintable(start.error().message));
    return start.ok() && start.value().unchanged ? start.value().cursor : QByteArray();
}

void TestRemoteDirectoryChanges::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(u"served.db"_s);
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {u"init"_s, u"--db"_s, m_db}).exitCode, 0);
    QString error;
    QVERIFY2(m_serve.start(m_db, kOwnerKey, &error), qPrintable(error));
    QVERIFY2(m_plain.listen(&error), qPrintable(error));
    QVERIFY2(m_tagged.listen(&error), qPrintable(error));
    m_tagged.offerETags(true);
    for (Server server : {Server::Ours, Server::Plain, Server::PlainWithETag})
        QVERIFY(storeFor(server)->create(documentedRow(u"ZZ_FEED_BASE"_s, u"fn"_s, u"echo"_s)).ok());
}

void TestRemoteDirectoryChanges::cleanupTestCase()
{
    m_serve.stop();
}

void TestRemoteDirectoryChanges::baselineThenNothing()
{
    QFETCH(Server, server);
    const auto store = storeFor(server);
    const QByteArray cursor = baseline(*store);
    QVERIFY(!cursor.isEmpty());

    for (int poll = 0; poll < 2; ++poll) {
        // A plain server without ETag sends its listing again; the same bytes are "unchanged".
        const StoreResult<DirectoryChanges> answer = store->changesSince(cursor);
        QVERIFY2(answer.ok(), qPrintable(answer.error().message));
        QVERIFY(answer.value().unchanged);
        QVERIFY(!answer.value().complete);
        QVERIFY(answer.value().changed.isEmpty());
        QVERIFY(answer.value().removed.isEmpty());
    }
}

void TestRemoteDirectoryChanges::anotherClientsWritesAppear_data()
{
    QTest::addColumn<Server>("server");
    QTest::addColumn<Change>("change");
    for (const auto &[name, server] :
         {std::pair{"capdeskctl serve", Server::Ours}, std::pair{"plain", Server::Plain},
          std::pair{"plain with ETag", Server::PlainWithETag}}) {
        QTest::addRow("%s, create", name) << server << Change::Create;
        QTest::addRow("%s, patch", name) << server << Change::Patch;
        QTest::addRow("%s, delete", name) << server << Change::Delete;
    }
}

void TestRemoteDirectoryChanges::anotherClientsWritesAppear()
{
    QFETCH(Server, server);
    QFETCH(Change, change);
    const auto watcher = storeFor(server);
    const auto writer = storeFor(server); // another owner's window
    const QString key = uniqueKey();
    if (change != Change::Create)
        QVERIFY(writer->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
    const QByteArray cursor = baseline(*watcher);
    QVERIFY(!cursor.isEmpty());

    switch (change) {
    case Change::Create:
        QVERIFY(writer->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
        break;
    case Change::Patch:
        QVERIFY(writer->patch(key, {{u"category"_s, u"moved"_s}}).ok());
        break;
    case Change::Delete:
        QVERIFY(!writer->remove(key).isError());
        break;
    }
    const StoreResult<DirectoryChanges> answer = watcher->changesSince(cursor);

    QVERIFY2(answer.ok(), qPrintable(answer.error().message));
    const DirectoryChanges &changes = answer.value();
    QVERIFY(!changes.unchanged);
    const bool gone = change == Change::Delete;
    if (server == Server::Ours) {
        QVERIFY(!changes.complete);
        QCOMPARE(keysOf(changes.changed), gone ? QStringList() : QStringList{key});
        QCOMPARE(changes.removed, gone ? QStringList{key} : QStringList());
    } else {
        QVERIFY(changes.complete);
        QVERIFY(changes.removed.isEmpty());
        QCOMPARE(keysOf(changes.changed).contains(key), !gone);
        QVERIFY(keysOf(changes.changed).contains(u"ZZ_FEED_BASE"_s));
    }
    if (!gone) {
        const auto summary = std::find_if(changes.changed.cbegin(), changes.changed.cend(),
                                          [&](const RowSummary &row) { return row.key == key; });
        QCOMPARE(summary->updatedAt, writer->row(key).value().updatedAt);
        QCOMPARE(summary->category, change == Change::Patch ? u"moved"_s : u"tools"_s);
    }
    // Polled again from where that answer left off: nothing new.
    const StoreResult<DirectoryChanges> again = watcher->changesSince(changes.cursor);
    QVERIFY(again.ok());
    QVERIFY(again.value().unchanged);
}

void TestRemoteDirectoryChanges::garbledCursorsAreCompleteListings_data()
{
    QTest::addColumn<Server>("server");
    QTest::addColumn<QByteArray>("cursor");
    for (const auto &[name, server] :
         {std::pair{"capdeskctl serve", Server::Ours}, std::pair{"plain", Server::Plain}}) {
        QTest::addRow("%s, words", name) << server << QByteArrayLiteral("tell me everything");
        QTest::addRow("%s, seq without a number", name) << server << QByteArrayLiteral("seq:");
        QTest::addRow("%s, negative seq", name) << server << QByteArrayLiteral("seq:-4");
        QTest::addRow("%s, seq past int64", name) << server << QByteArrayLiteral("seq:99999999999999999999");
        QTest::addRow("%s, ETag not hex", name) << server << QByteArrayLiteral("list:zz:");
        QTest::addRow("%s, ETag of odd length", name) << server << QByteArrayLiteral("list:abc:");
        QTest::addRow("%s, a short digest", name) << server << QByteArrayLiteral("list::00ff");
        QTest::addRow("%s, a part too many", name) << server << QByteArrayLiteral("list:::");
        QTest::addRow("%s, 1 MiB", name) << server << QByteArray(1024 * 1024, 's');
    }
}

void TestRemoteDirectoryChanges::garbledCursorsAreCompleteListings()
{
    QFETCH(Server, server);
    QFETCH(QByteArray, cursor);
    const auto store = storeFor(server);

    const StoreResult<DirectoryChanges> answer = store->changesSince(cursor);

    QVERIFY2(answer.ok(), qPrintable(answer.error().message));
    QVERIFY(answer.value().complete);
    QVERIFY(keysOf(answer.value().changed).contains(u"ZZ_FEED_BASE"_s));
    QVERIFY(RemoteDirectoryStore(store->connection()).changesSince(answer.value().cursor).ok());
}

void TestRemoteDirectoryChanges::eachPollIsOneRequest()
{
    QFETCH(Server, server);
    const auto store = storeFor(server);
    QByteArray cursor = baseline(*store);
    const QByteArray logBefore = m_serve.standardError();
    MinimalServer &plain = server == Server::Plain ? m_plain : m_tagged;
    plain.clearRequests();

    for (int poll = 0; poll < 3; ++poll) {
        const StoreResult<DirectoryChanges> answer = store->changesSince(cursor);
        QVERIFY(answer.ok());
        cursor = answer.value().cursor;
    }

    if (server == Server::Ours) {
        QTRY_COMPARE(m_serve.standardError().mid(logBefore.size()).count("GET /api/directory?since_seq="), 3);
        QCOMPARE(m_serve.standardError().mid(logBefore.size()).count('\n'), 3);
        return;
    }
    const QList<MinimalServer::Request> requests = plain.requests();
    QCOMPARE(requests.size(), 3);
    for (const MinimalServer::Request &request : requests) {
        QCOMPARE(request.pathAndQuery, u"/api/directory"_s);
        QCOMPARE(request.header("If-None-Match").isEmpty(), server == Server::Plain);
    }
}

void TestRemoteDirectoryChanges::intervalsFollowTheServerKind_data()
{
    QTest::addColumn<Server>("server");
    QTest::addColumn<int>("intervalMs");
    QTest::addRow("capdeskctl serve") << Server::Ours << 5000;
    QTest::addRow("plain server") << Server::Plain << 60000;
    QTest::addRow("plain server with ETag") << Server::PlainWithETag << 60000;
}

void TestRemoteDirectoryChanges::intervalsFollowTheServerKind()
{
    QFETCH(Server, server);
    QFETCH(int, intervalMs);
    const auto store = storeFor(server);
    QCOMPARE(store->changePollIntervalMs(), 5000); // not known before the baseline
    QVERIFY(!baseline(*store).isEmpty());
    QCOMPARE(store->changePollIntervalMs(), intervalMs);
}

void TestRemoteDirectoryChanges::aProfilesIntervalWinsOverTheServerKind()
{
    QFETCH(Server, server);
    const auto store = storeFor(server, 20000);
    QCOMPARE(store->changePollIntervalMs(), 20000);
    QVERIFY(!baseline(*store).isEmpty());
    QCOMPARE(store->changePollIntervalMs(), 20000);
}

void TestRemoteDirectoryChanges::aSequenceCursorMeetingAPlainServerFallsBack()
{
    // A cursor from `capdeskctl serve`, handed to a plain server at the same URL later.
    const auto ours = storeFor(Server::Ours);
    const QByteArray cursor = baseline(*ours);
    const auto plain = storeFor(Server::Plain);

    const StoreResult<DirectoryChanges> answer = plain->changesSince(cursor);

    QVERIFY(answer.ok());
    QVERIFY(answer.value().complete);
    QVERIFY(keysOf(answer.value().changed).contains(u"ZZ_FEED_BASE"_s));
    QCOMPARE(plain->changePollIntervalMs(), 60000);
    m_plain.clearRequests();
    QVERIFY(plain->changesSince(cursor).ok()); // remembered: no since_seq asked again
    QCOMPARE(m_plain.requests().size(), 1);
    QCOMPARE(m_plain.requests().first().pathAndQuery, u"/api/directory"_s);
}

void TestRemoteDirectoryChanges::capdeskctlWritesFromOtherProcesses()
{
    const auto store = storeFor(Server::Ours);
    QByteArray cursor = baseline(*store);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"CAPDESK_TERMINAL_KEY"_s, QString::fromLatin1(kOwnerKey));
    for (const QStringList &where :
         {QStringList{u"--server"_s, m_serve.baseUrl().toString()}, QStringList{u"--db"_s, m_db}}) {
        const QString key = uniqueKey();
        const QByteArray row = QJsonDocument(documentedRow(key, u"fn"_s, u"echo"_s).toJson()).toJson();
        const ProcessRun::Result put =
            ProcessRun::run(ServeProcess::program(), QStringList{u"put"_s} + where, row, environment);
        QVERIFY2(put.finished && put.exitCode == 0, put.err.constData());

        const StoreResult<DirectoryChanges> answer = store->changesSince(cursor);

        QVERIFY2(answer.ok(), qPrintable(answer.error().message));
        QVERIFY(!answer.value().complete);
        QCOMPARE(keysOf(answer.value().changed), QStringList{key});
        cursor = answer.value().cursor;
    }
}

void TestRemoteDirectoryChanges::aServerThatIsGoneIsUnreachable()
{
    ServeProcess doomed;
    const QString db = m_dir.filePath(u"doomed.db"_s);
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {u"init"_s, u"--db"_s, db}).exitCode, 0);
    QString error;
    QVERIFY2(doomed.start(db, kOwnerKey, &error), qPrintable(error));
    const auto store = std::make_shared<RemoteDirectoryStore>(std::make_shared<ServerConnection>(
        ServerEndpoint{doomed.baseUrl(), QString::fromLatin1(kOwnerKey), 10000}));
    const QByteArray cursor = baseline(*store);
    QVERIFY(!cursor.isEmpty());
    doomed.kill();

    const StoreResult<DirectoryChanges> answer = store->changesSince(cursor);

    QVERIFY(!answer.ok());
    QCOMPARE(answer.error().kind, StoreError::Kind::Unreachable);
    QVERIFY2(doomed.restart(&error), qPrintable(error));
    const StoreResult<DirectoryChanges> back = store->changesSince(cursor);
    QVERIFY2(back.ok(), qPrintable(back.error().message));
    QVERIFY(back.value().unchanged);
}

QTEST_GUILESS_MAIN(TestRemoteDirectoryChanges)
#include "tst_remotedirectorychanges.moc"
