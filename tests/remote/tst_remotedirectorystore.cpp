#include "dispatch/call/invocationhandle.h"
#include "dispatch/core/isotime.h"
#include "dispatch/store/sqlitedirectorystore.h"
#include "remote/remoteconfirmation.h"
#include "remote/remotedirectorystore.h"
#include "remote/remotedispatcher.h"
#include "remote/rowpatch.h"
#include "remote/serverconnection.h"
#include "remote/servererrors.h"
#include "tests/remote/remotetestsupport.h"
#include "tests/support/fixturegenerator.h"
#include "tests/support/minimalserver.h"
#include "tests/support/processrun.h"
#include "tests/support/refusingport.h"
#include "tests/support/serveprocess.h"
#include "tests/support/testcertificates.h"

#include <QElapsedTimer>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSslError>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("tst-remote-owner-key-7f3a9c2e4b1d");

enum class Server { Ours, Minimal };

// Answers every request with more than a directory answer may hold (64 MiB): "announce"
// declares 64 MiB + 1 byte in Content-Length and then sends nothing; "stream" sends
// chunks without a length for as long as the client reads them (at most 96 MiB).
class OversizedAnswerServer final : public QTcpServer
{
public:
    explicit OversizedAnswerServer(QByteArray mode) : m_mode(std::move(mode))
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection())
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] { answer(socket); });
        });
    }

private:
    static constexpr qint64 kChunk = 1024 * 1024;
    static constexpr qint64 kMost = 96 * kChunk;

    void answer(QTcpSocket *socket)
    {
        socket->readAll();
        if (m_mode == "announce") {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                          + QByteArray::number(64 * kChunk + 1) + "\r\n\r\n");
            return;
        }
        socket->write(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
        connect(socket, &QTcpSocket::bytesWritten, socket, [this, socket] {
            if (socket->bytesToWrite() < kChunk && m_sent < kMost) {
                socket->write(QByteArray::number(kChunk, 16) + "\r\n" + QByteArray(kChunk, ' ') + "\r\n");
                m_sent += kChunk;
            }
        });
    }

    QByteArray m_mode;
    qint64 m_sent = 0;
};

} // namespace

Q_DECLARE_METATYPE(Server)
Q_DECLARE_METATYPE(TestCertificates::Server)

// RemoteDirectoryStore against a real `capdeskctl serve` and against a server that
// implements only SPEC §10's table, with the same expectations where SPEC fixes them.
class TestRemoteDirectoryStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void articleTranscript_data() { servers(); }
    void articleTranscript();
    void readers_data() { servers(); }
    void readers();
    void replaceSendsOnlyTheChangedFields();
    void lockedFieldsAreRefusedByName();
    void staleReadsAreConflictsWithTheirRow_data() { servers(); }
    void staleReadsAreConflictsWithTheirRow();
    void ifMatchIsHonouredOrIgnored();
    void hygieneRefusalsCarryFindings_data() { servers(); }
    void hygieneRefusalsCarryFindings();
    void applyStopsAtTheFirstFailureAndSaysWhat_data() { servers(); }
    void applyStopsAtTheFirstFailureAndSaysWhat();
    void importRefusesTakenKeysBeforeWriting();
    void wrongKeyIsUnauthorized_data() { servers(); }
    void wrongKeyIsUnauthorized();
    void serverDownIsUnreachableAtOnce();
    void silentServerTimesOut();
    void killedServerComesBack();
    void pagingHonoured();
    void pagingIgnored();
    void serverPagingExtension_data();
    void serverPagingExtension();
    void connectionCheck();
    void ownerKeyNeverInUrls();
    void oversizedAnswersAreNamedErrors_data();
    void oversizedAnswersAreNamedErrors();
    void https_data();
    void https();
    void keysNoRowCanHaveSendNothing();
    void putCreatesAndKeepsLockedFields();
    void putReportsCreatedAsTheLocalStoreDoes_data() { servers(); }
    void putReportsCreatedAsTheLocalStoreDoes();

private:
    void servers();
    QUrl urlOf(Server server) const;
    std::shared_ptr<RemoteDirectoryStore> storeFor(Server server, const QByteArray &key = kOwnerKey,
                                                   int timeoutMs = 10000) const;
    QString uniqueKey(const char *stem);

    QTemporaryDir m_dir;
    ServeProcess m_serve;
    MinimalServer m_minimal{kOwnerKey};
    QHttpServer m_upstream;
    quint16 m_upstreamPort = 0;
    QUrlQuery m_upstreamSaw;
    int m_keys = 0;
};

void TestRemoteDirectoryStore::servers()
{
    QTest::addColumn<Server>("server");
    QTest::addRow("capdeskctl serve") << Server::Ours;
    QTest::addRow("SPEC-only server") << Server::Minimal;
}

QUrl TestRemoteDirectoryStore::urlOf(Server server) const
{
    return server == Server::Ours ? m_serve.baseUrl() : m_minimal.baseUrl();
}

std::shared_ptr<RemoteDirectoryStore> TestRemoteDirectoryStore::storeFor(Server server, const QByteArray &key,
                                                                         int timeoutMs) const
{
    return std::make_shared<RemoteDirectoryStore>(std::make_shared<ServerConnection>(
        ServerEndpoint{urlOf(server), QString::fromLatin1(key), timeoutMs}));
}

QString TestRemoteDirectoryStore::uniqueKey(const char *stem)
{
    return u"ZZ_%1_%2"_s.arg(QLatin1String(stem)).arg(++m_keys);
}

void TestRemoteDirectoryStore::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString db = m_dir.filePath(u"served.db"_s);
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {u"init"_s, u"--db"_s, db}).exitCode, 0);
    QString error;
    QVERIFY2(m_serve.start(db, kOwnerKey, &error), qPrintable(error));
    QVERIFY2(m_minimal.listen(&error), qPrintable(error));
    // Open-Meteo's answer, as the article shows it.
    m_upstream.route(u"/v1/forecast"_s, [this](const QHttpServerRequest &request) {
        m_upstreamSaw = request.query();
        return QHttpServerResponse(
            QJsonObject{{u"latitude"_s, 37.763283},
                        {u"current"_s, QJsonObject{{u"interval"_s, 900}, {u"temperature_2m"_s, 15.7}}}});
    });
    m_upstreamPort = m_upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(m_upstreamPort != 0);
}

void TestRemoteDirectoryStore::cleanupTestCase()
{
    m_serve.stop();
}

void TestRemoteDirectoryStore::articleTranscript()
{
    QFETCH(Server, server);
    const auto store = storeFor(server);
    RemoteDispatcher dispatcher(store->connection());
    const QString key = uniqueKey("TEMPERATURE");
    const Row row = documentedRow(
        key, u"http"_s,
        u"GET http://127.0.0.1:%1/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m"_s.arg(
            m_upstreamPort));

    const StoreResult<WriteOutcome> created = store->create(row);
    QVERIFY2(created.ok(), qPrintable(created.error().message));
    QCOMPARE(created.value().key, key);
    QVERIFY(created.value().created);
    QVERIFY(created.value().updatedAt.endsWith(u'Z'));

    const auto stranger = storeFor(server, QByteArrayLiteral("not-the-owner-key-at-all-0000"));
    const StoreResult<WriteOutcome> refused =
        stranger->create(documentedRow(uniqueKey("NOPE"), u"fn"_s, u"echo"_s));
    QCOMPARE(refused.error().kind, StoreError::Kind::Unauthorized);
    QCOMPARE(refused.error().message, u"the server refused the owner key"_s);

    const StoreResult<WriteOutcome> runner = store->patch(key, {{u"runner"_s, u"x"_s}});
    QCOMPARE(runner.error().kind, StoreError::Kind::Invalid);
    QCOMPARE(runner.error().message, u"no recognized fields"_s);

    InvocationRequest request;
    request.key = key;
    request.body = u"37.77|-122.42"_s;
    const InvocationOutcome outcome = invokeAndWait(dispatcher, request);
    QVERIFY2(outcome.refusal.isEmpty(), qPrintable(outcome.refusal));
    QVERIFY(outcome.ran);
    QVERIFY(outcome.material());
    QVERIFY2(outcome.result.output.startsWith(u"HTTP 200:"_s), qPrintable(outcome.result.output));
    QVERIFY(outcome.result.output.contains(u"temperature_2m"_s));
    QVERIFY(outcome.trace.startsWith(u"t_"_s));
    QCOMPARE(m_upstreamSaw.queryItemValue(u"latitude"_s), u"37.77"_s);
    QCOMPARE(m_upstreamSaw.queryItemValue(u"longitude"_s), u"-122.42"_s);
    const QString id = outcome.invocationId;
    QVERIFY(id.startsWith(u"inv_"_s));
    if (server == Server::Ours) {
        // Our server hands over its signed receipt through confirm, as a local call has one.
        QVERIFY2(outcome.receipt.has_value(), qPrintable(outcome.receiptError));
        QCOMPARE(outcome.receipt->invocationId, id);
        QCOMPARE(outcome.receipt->actor, u"owner:terminal-key"_s);
        QCOMPARE(outcome.runner, u"http"_s);
    } else {
        QVERIFY(!outcome.receipt.has_value());
        QVERIFY(outcome.receiptError.startsWith(u"the server keeps this receipt"_s));
    }

    StoreResult<RemoteConfirmation> confirmed = RemoteConfirmation::fetch(*store->connection(), id);
    QVERIFY(confirmed.ok());
    QVERIFY(confirmed.value().confirmed);
    QCOMPARE(confirmed.value().status, u"PROVEN_MATERIAL_RESULT"_s);

    QCOMPARE(store->remove(key).kind, StoreError::Kind::None);
    QCOMPARE(store->row(key).error().kind, StoreError::Kind::NotFound);
    confirmed = RemoteConfirmation::fetch(*store->connection(), id);
    QVERIFY(confirmed.ok());
    QVERIFY(confirmed.value().confirmed);
    QCOMPARE(RemoteConfirmation::fetch(*store->connection(), u"inv_zzzzzzzzzz"_s).value().status,
             u"UNKNOWN_INVOCATION"_s);
}

void TestRemoteDirectoryStore::readers()
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

void TestRemoteDirectoryStore::replaceSendsOnlyTheChangedFields()
{
    const auto store = storeFor(Server::Minimal);
    const QString key = uniqueKey("REPLACE");
    QVERIFY(store->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
    Row edited = store->row(key).value();
    const QString read = edited.updatedAt;
    edited.seq = 7;
    edited.content += u"\n# more words"_s;
    m_minimal.clearRequests();
    const StoreResult<WriteOutcome> replaced = store->replace(edited, read);
    QVERIFY2(replaced.ok(), qPrintable(replaced.error().message));
    QVERIFY(replaced.value().updatedAt > read);
    const QList<MinimalServer::Request> patches = m_minimal.requests("PATCH");
    QCOMPARE(patches.size(), 1);
    QCOMPARE(patches.first().pathAndQuery, u"/api/directory/"_s + key);
    QCOMPARE(patches.first().json(), (QJsonObject{{u"seq"_s, 7}, {u"content"_s, edited.content}}));
    QCOMPARE(patches.first().header("If-Match"), read.toUtf8());
    QCOMPARE(store->row(key).value().seq, std::optional<qint64>(7));

    // Nothing changed: nothing is sent, and the row's updated_at comes back.
    m_minimal.clearRequests();
    edited.updatedAt = replaced.value().updatedAt;
    const StoreResult<WriteOutcome> unchanged = store->replace(edited, replaced.value().updatedAt);
    QVERIFY(unchanged.ok());
    QCOMPARE(unchanged.value().updatedAt, replaced.value().updatedAt);
    QVERIFY(m_minimal.requests("PATCH").isEmpty());
}

void TestRemoteDirectoryStore::lockedFieldsAreRefusedByName()
{
    const auto store = storeFor(Server::Minimal);
    const QString key = uniqueKey("LOCKED");
    QVERIFY(store->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
    for (const char *field : {"runner", "sensitive"}) {
        Row edited = store->row(key).value();
        edited.seq = 3;
        if (QByteArray(field) == "runner")
            edited.runner = u"other"_s;
        else
            edited.sensitive = true;
        m_minimal.clearRequests();
        const StoreResult<WriteOutcome> refused = store->replace(edited, edited.updatedAt);
        QCOMPARE(refused.error().kind, StoreError::Kind::Invalid);
        QCOMPARE(refused.error().message, RowPatch::lockedReason());
        QVERIFY2(m_minimal.requests("PATCH").isEmpty(), field);
    }
}

void TestRemoteDirectoryStore::staleReadsAreConflictsWithTheirRow()
{
    QFETCH(Server, server);
    const auto mine = storeFor(server);
    const auto theirs = storeFor(server);
    const QString key = uniqueKey("STALE");
    QVERIFY(mine->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
    Row edited = mine->row(key).value();
    const QString read = edited.updatedAt;
    // Both servers stamp updated_at from this machine's clock to the millisecond: once that
    // clock reads past `read`, their patch gets a different updated_at.
    QTRY_VERIFY(IsoTime::nowUtc() > read);
    const StoreResult<WriteOutcome> other = theirs->patch(key, {{u"planner_rank"_s, 5}});
    QVERIFY(other.ok());

    edited.seq = 1;
    const StoreResult<WriteOutcome> replaced = mine->replace(edited, read);
    QCOMPARE(replaced.error().kind, StoreError::Kind::Conflict);
    QCOMPARE(replaced.error().details.size(), 1);
    const QJsonObject their = replaced.error().details.first().toObject();
    QCOMPARE(their.value(u"updated_at"_s).toString(), other.value().updatedAt);
    QCOMPARE(their.value(u"planner_rank"_s).toInt(), 5);

    const StoreError removed = mine->remove(key, read);
    QCOMPARE(removed.kind, StoreError::Kind::Conflict);
    QCOMPARE(removed.details.first().toObject().value(u"updated_at"_s).toString(), other.value().updatedAt);
    QVERIFY(mine->row(key).ok()); // nothing lost

    // Merged onto their row (what the merge dialog does), the edit goes through and both
    // changes are kept.
    Row merged = *Row::fromJson(their);
    merged.seq = 1;
    QVERIFY(mine->replace(merged, other.value().updatedAt).ok());
    QCOMPARE(mine->row(key).value().plannerRank, 5);
    QCOMPARE(mine->row(key).value().seq, std::optional<qint64>(1));
}

void TestRemoteDirectoryStore::ifMatchIsHonouredOrIgnored()
{
    // The store re-reads before writing, so a 412 needs a change between that read and the
    // write; here the stale If-Match is sent directly to see what each server does with it.
    for (Server server : {Server::Ours, Server::Minimal}) {
        const auto store = storeFor(server);
        const QString key = uniqueKey("IFMATCH");
        const StoreResult<WriteOutcome> created = store->create(documentedRow(key, u"fn"_s, u"echo"_s));
        QTRY_VERIFY(IsoTime::nowUtc() > created.value().updatedAt); // see staleReadsAreConflictsWithTheirRow
        QVERIFY(store->patch(key, {{u"seq"_s, 1}}).ok());
        const ServerResponse stale =
            store->connection()->send("PATCH", u"/api/directory/"_s + key, R"({"seq":2})",
                                      {{QByteArrayLiteral("If-Match"), created.value().updatedAt.toUtf8()}});
        const StoreError error = ServerErrors::fromResponse(stale, store->location());
        if (server == Server::Ours) {
            QCOMPARE(stale.status, 412);
            QCOMPARE(error.kind, StoreError::Kind::Conflict);
        } else {
            QCOMPARE(stale.status, 200); // ignored: why the client re-reads updated_at first
            QCOMPARE(error.kind, StoreError::Kind::None);
        }
    }
}

void TestRemoteDirectoryStore::hygieneRefusalsCarryFindings()
{
    QFETCH(Server, server);
    const auto store = storeFor(server);
    Row bare = documentedRow(uniqueKey("BARE"), u"fn"_s, u"echo"_s);
    bare.content = u"echo it"_s;
    const StoreResult<WriteOutcome> refused = store->create(bare);
    QCOMPARE(refused.error().kind, StoreError::Kind::Invalid);
    QVERIFY(!refused.error().details.isEmpty());
    QStringList codes;
    for (const QJsonValue &finding : refused.error().details)
        codes.append(finding.toObject().value(u"code"_s).toString());
    QVERIFY2(codes.contains(u"H010"_s), qPrintable(codes.join(u',')));
    QCOMPARE(store->row(bare.key).error().kind, StoreError::Kind::NotFound);
}

void TestRemoteDirectoryStore::applyStopsAtTheFirstFailureAndSaysWhat()
{
    QFETCH(Server, server);
    const auto store = storeFor(server);
    const Row first = documentedRow(uniqueKey("APPLY_A"), u"fn"_s, u"echo"_s);
    Row bad = documentedRow(uniqueKey("APPLY_B"), u"fn"_s, u"echo"_s);
    bad.content = u"no documentation"_s;
    const Row last = documentedRow(uniqueKey("APPLY_C"), u"fn"_s, u"echo"_s);
    const StoreError error =
        store->apply({RowChange::create(first), RowChange::create(bad), RowChange::create(last)});
    QCOMPARE(error.kind, StoreError::Kind::Invalid);
    QVERIFY(!error.details.isEmpty()); // the findings survive for the GUI
    QVERIFY2(error.message.startsWith(bad.key + u": "_s), qPrintable(error.message));
    QVERIFY2(error.message.contains(
                 u"not all-or-nothing; written: %1; not written: %2"_s.arg(first.key, last.key)),
             qPrintable(error.message));
    QVERIFY(store->row(first.key).ok());
    QCOMPARE(store->row(last.key).error().kind, StoreError::Kind::NotFound);
}

void TestRemoteDirectoryStore::importRefusesTakenKeysBeforeWriting()
{
    const auto store = storeFor(Server::Minimal);
    const Row taken = documentedRow(uniqueKey("TAKEN"), u"fn"_s, u"echo"_s);
    QVERIFY(store->create(taken).ok());
    const Row fresh = documentedRow(uniqueKey("FRESH"), u"fn"_s, u"echo"_s);
    m_minimal.clearRequests();
    StoreError error = store->importRows({fresh, taken});
    QCOMPARE(error.kind, StoreError::Kind::AlreadyExists);
    QVERIFY(error.message.contains(u"nothing was imported"_s));
    QVERIFY(m_minimal.requests("POST").isEmpty());
    error = store->importRows({fresh, fresh});
    QCOMPARE(error.kind, StoreError::Kind::AlreadyExists);
    QVERIFY(store->importRows({fresh}).kind == StoreError::Kind::None);
    QVERIFY(store->row(fresh.key).ok());
}

void TestRemoteDirectoryStore::wrongKeyIsUnauthorized()
{
    QFETCH(Server, server);
    const auto owner = storeFor(server);
    const QString key = uniqueKey("KEYED");
    QVERIFY(owner->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
    for (const QByteArray &presented : {QByteArray(), QByteArrayLiteral("wrong-key-wrong-key-wrong-key")}) {
        const auto stranger = storeFor(server, presented);
        QVERIFY(stranger->row(key).ok()); // reads are open (SPEC §10 keys the mutating calls)
        const StoreError refused = stranger->patch(key, {{u"seq"_s, 9}}).error();
        QCOMPARE(refused.kind, StoreError::Kind::Unauthorized);
        QCOMPARE(refused.message, presented.isEmpty() ? u"the server wants an owner key and none was given"_s
                                                      : u"the server refused the owner key"_s);
        QCOMPARE(stranger->remove(key).kind, StoreError::Kind::Unauthorized);
        Row edited = owner->row(key).value();
        edited.seq = 9;
        QCOMPARE(stranger->replace(edited, edited.updatedAt).error().kind, StoreError::Kind::Unauthorized);
        QCOMPARE(stranger->put(edited).error().kind, StoreError::Kind::Unauthorized);
        const ConnectionCheck check = stranger->connection()->check();
        QVERIFY(!check.ok);
        QVERIFY2(check.message.contains(presented.isEmpty() ? u"none is set"_s : u"refused the owner key"_s),
                 qPrintable(check.message));
    }
    QVERIFY(owner->row(key).value().seq != std::optional<qint64>(9));
}

void TestRemoteDirectoryStore::serverDownIsUnreachableAtOnce()
{
    const RefusingPort probe; // nothing listens there, and nothing else can while it is held
    QVERIFY(probe.port() != 0);
    const QUrl url(u"http://127.0.0.1:%1"_s.arg(probe.port()));
    RemoteDirectoryStore store(
        std::make_shared<ServerConnection>(ServerEndpoint{url, QString::fromLatin1(kOwnerKey)}));
    QElapsedTimer clock;
    clock.start();
    const StoreResult<Row> row = store.row(u"ZZ_ANY"_s);
    QVERIFY(clock.elapsed() < 2000);
    QCOMPARE(row.error().kind, StoreError::Kind::Unreachable);
    QCOMPARE(row.error().message, u"server %1 did not answer: connection refused"_s.arg(url.toString()));
    QCOMPARE(store.scanSummaries([](const RowSummary &) {}).kind, StoreError::Kind::Unreachable);
    QCOMPARE(store.create(documentedRow(u"ZZ_DOWN"_s, u"fn"_s, u"echo"_s)).error().kind,
             StoreError::Kind::Unreachable);
}

void TestRemoteDirectoryStore::silentServerTimesOut()
{
    // Accepts the connection and never answers.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    const QUrl url(u"http://127.0.0.1:%1"_s.arg(silent.serverPort()));
    auto connection =
        std::make_shared<ServerConnection>(ServerEndpoint{url, QString::fromLatin1(kOwnerKey), 300});
    QList<ServerResponse> reported;
    connect(connection.get(), &ServerConnection::requestFinished, this,
            [&reported](const ServerResponse &response) { reported.append(response); });
    RemoteDirectoryStore store(connection);
    QElapsedTimer clock;
    clock.start();
    const StoreError error = store.remove(u"ZZ_ANY"_s);
    QVERIFY(clock.elapsed() >= 300 && clock.elapsed() < 3000);
    QCOMPARE(error.kind, StoreError::Kind::Unreachable);
    QCOMPARE(error.message, u"server %1 did not answer: timed out after 300 ms"_s.arg(url.toString()));
    QTRY_COMPARE(reported.size(), 1);
    QCOMPARE(reported.first().method, QByteArray("DELETE"));
    QVERIFY(!reported.first().reached());
}

void TestRemoteDirectoryStore::killedServerComesBack()
{
    const auto store = storeFor(Server::Ours);
    const QString key = uniqueKey("CRASH");
    QVERIFY(store->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
    Row edited = store->row(key).value();
    edited.seq = 11;
    m_serve.kill();
    const StoreResult<WriteOutcome> failed = store->replace(edited, edited.updatedAt);
    QCOMPARE(failed.error().kind, StoreError::Kind::Unreachable);
    QString error;
    QVERIFY2(m_serve.restart(&error), qPrintable(error));
    const StoreResult<WriteOutcome> retried = store->replace(edited, edited.updatedAt);
    QVERIFY2(retried.ok(), qPrintable(retried.error().message));
    QCOMPARE(store->row(key).value().seq, std::optional<qint64>(11));
}

void TestRemoteDirectoryStore::pagingHonoured()
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

void TestRemoteDirectoryStore::pagingIgnored()
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

void TestRemoteDirectoryStore::serverPagingExtension_data()
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

void TestRemoteDirectoryStore::serverPagingExtension()
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

void TestRemoteDirectoryStore::connectionCheck()
{
    for (Server server : {Server::Ours, Server::Minimal}) {
        const ConnectionCheck check = storeFor(server)->connection()->check();
        QVERIFY2(check.ok, qPrintable(check.message));
        QVERIFY(check.rows >= 0);
        QVERIFY(check.message.startsWith(u"connected: owner key accepted"_s));
        QVERIFY(storeFor(server)->connection()->ping().status == 200);
    }
    const ConnectionCheck down =
        std::make_shared<ServerConnection>(ServerEndpoint{QUrl(u"http://127.0.0.1:1"_s), {}})->check();
    QVERIFY(!down.ok);
    QVERIFY(down.message.contains(u"did not answer"_s));
}

void TestRemoteDirectoryStore::ownerKeyNeverInUrls()
{
    const auto store = storeFor(Server::Minimal);
    m_minimal.clearRequests();
    const QString key = uniqueKey("SECRETS");
    QVERIFY(store->create(documentedRow(key, u"fn"_s, u"echo"_s)).ok());
    QVERIFY(store->row(key).ok());
    QVERIFY(store->remove(key, store->row(key).value().updatedAt).kind == StoreError::Kind::None);
    QVERIFY(!m_minimal.requests().isEmpty());
    for (const MinimalServer::Request &request : m_minimal.requests()) {
        QVERIFY(!request.pathAndQuery.contains(QString::fromLatin1(kOwnerKey)));
        QVERIFY(!request.body.contains(kOwnerKey));
        for (const auto &[name, value] : request.headers)
            QVERIFY2(!value.contains(kOwnerKey), name.constData());
    }
    QVERIFY(m_minimal.requests("POST").first().hadOwnerKey);
    const QString location = store->location();
    QVERIFY(!location.contains(QString::fromLatin1(kOwnerKey)));
}

void TestRemoteDirectoryStore::oversizedAnswersAreNamedErrors_data()
{
    QTest::addColumn<QByteArray>("mode");
    // No body follows the headers: a refusal that waited for the body would time out instead.
    QTest::addRow("declared over 64 MiB: refused at the headers") << QByteArray("announce");
    QTest::addRow("sent over 64 MiB without a length: refused at the cap") << QByteArray("stream");
}

void TestRemoteDirectoryStore::oversizedAnswersAreNamedErrors()
{
    QFETCH(QByteArray, mode);
    OversizedAnswerServer server(mode);
    QVERIFY(server.listen(QHostAddress::LocalHost, 0));
    const QUrl url(u"http://127.0.0.1:%1"_s.arg(server.serverPort()));
    // The default leaves room for every full row of a 100,000-row directory; the test sets
    // a smaller cap so it need not stream half a gigabyte.
    QVERIFY(ServerEndpoint{}.maxAnswerBytes >= 100000 * 800);
    RemoteDirectoryStore store(
        std::make_shared<ServerConnection>(ServerEndpoint{url, {}, 10000, {}, 64 * 1024 * 1024}));
    QCOMPARE(store.connection()->endpoint().maxAnswerBytes, 64 * 1024 * 1024);
    // The store blocks its caller; this thread serves the answer meanwhile.
    QFuture<StoreError> scan =
        QtConcurrent::run([&store] { return store.scanSummaries([](const RowSummary &) {}); });
    QTRY_VERIFY_WITH_TIMEOUT(scan.isFinished(), 20000);
    const StoreError error = scan.result();
    QCOMPARE(error.kind, StoreError::Kind::Io);
    QCOMPARE(error.message,
             u"server %1 sent too much for GET /api/directory?fields=summary&limit=%2: the body "
             u"is larger than 64 MiB"_s.arg(url.toString())
                 .arg(RemoteDirectoryStore::kPageRows));
}

void TestRemoteDirectoryStore::https_data()
{
    QTest::addColumn<TestCertificates::Server>("certificate");
    QTest::addColumn<bool>("withCaFile");
    QTest::addColumn<QString>("refusal"); // empty: trusted
    using Certificate = TestCertificates::Server;
    QTest::addRow("the profile's CA file trusts it") << Certificate::Loopback << true << QString();
    QTest::addRow("without the CA file: not trusted")
        << Certificate::Loopback << false << u"did not answer: certificate for 127.0.0.1 is not trusted: "_s;
    QTest::addRow("a certificate for another name")
        << Certificate::OtherHost << true
        << u"did not answer: certificate for 127.0.0.1 names another host: "_s
               + QSslError(QSslError::HostNameMismatch).errorString();
}

// capdeskctl serve --tls-cert --tls-key, read and written through the store over https.
void TestRemoteDirectoryStore::https()
{
    QFETCH(TestCertificates::Server, certificate);
    QFETCH(bool, withCaFile);
    QFETCH(QString, refusal);
    TestCertificates certificates;
    QString error;
    QVERIFY2(certificates.create(&error), qPrintable(error));
    const QString db = m_dir.filePath(u"https-%1.db"_s.arg(QLatin1String(QTest::currentDataTag())));
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {u"init"_s, u"--db"_s, db}).exitCode, 0);
    ServeProcess served;
    served.setTls(certificates.certificateFile(certificate), certificates.keyFile(certificate));
    QVERIFY2(served.start(db, kOwnerKey, &error), qPrintable(error));
    ServerEndpoint endpoint{served.baseUrl(), QString::fromLatin1(kOwnerKey)};
    endpoint.caFile = withCaFile ? certificates.caFile() : QString();
    RemoteDirectoryStore store(std::make_shared<ServerConnection>(endpoint));

    const QString key = uniqueKey("TLS");
    const StoreResult<WriteOutcome> created = store.create(documentedRow(key, u"fn"_s, u"echo"_s));
    if (!refusal.isEmpty()) {
        QCOMPARE(created.error().kind, StoreError::Kind::Unreachable);
        QVERIFY2(created.error().message.startsWith(u"server %1 "_s.arg(served.baseUrl().toString())),
                 qPrintable(created.error().message));
        QVERIFY2(created.error().message.contains(refusal), qPrintable(created.error().message));
        QVERIFY(!store.connection()->check().ok);
        QVERIFY(!served.standardError().contains("/api/directory")); // nothing was sent
        return;
    }
    QVERIFY2(created.ok(), qPrintable(created.error().message));
    QStringList listed;
    QVERIFY(!store.scanSummaries([&](const RowSummary &summary) { listed.append(summary.key); }).isError());
    QVERIFY(listed.contains(key));
    const StoreResult<WriteOutcome> patched = store.patch(key, {{u"seq"_s, 5}});
    QVERIFY2(patched.ok(), qPrintable(patched.error().message));
    QCOMPARE(store.row(key).value().seq, std::optional<qint64>(5));
    QVERIFY(served.standardError().contains("PATCH /api/directory/" + key.toUtf8() + " 200"));
}

QTEST_MAIN(TestRemoteDirectoryStore)
void TestRemoteDirectoryStore::keysNoRowCanHaveSendNothing()
{
    const auto store = storeFor(Server::Minimal);
    const qsizetype before = m_minimal.requests().size();
    for (const QString &key : {QString(), u"lower"_s, u"A/B"_s}) {
        QCOMPARE(store->row(key).error().kind, StoreError::Kind::NotFound);
        QCOMPARE(store->patch(key, {{u"category"_s, u"x"_s}}).error().kind, StoreError::Kind::NotFound);
        QCOMPARE(store->remove(key).kind, StoreError::Kind::NotFound);
        const StoreResult<WriteOutcome> created = store->create(documentedRow(key, u"fn"_s, u"echo"_s));
        QCOMPARE(created.error().kind, StoreError::Kind::Invalid);
        QVERIFY2(created.error().message.contains(u"must match"_s), qPrintable(created.error().message));
        QCOMPARE(store->put(documentedRow(key, u"fn"_s, u"echo"_s)).error().kind, StoreError::Kind::Invalid);
    }
    QCOMPARE(m_minimal.requests().size(), before);
}

// A put against serve is one PUT either way: a free key is created (201), and a replace
// keeps the stored sensitive flag however the row sent says otherwise.
void TestRemoteDirectoryStore::putCreatesAndKeepsLockedFields()
{
    const auto store = storeFor(Server::Ours);
    Row row = documentedRow(uniqueKey("PUT"), u"fn"_s, u"echo"_s);
    row.sensitive = true;
    const StoreResult<WriteOutcome> created = store->put(row);
    QVERIFY2(created.ok(), qPrintable(created.error().message));
    QVERIFY(created.value().created);
    row.sensitive = false;
    row.category = u"edited"_s;
    const StoreResult<WriteOutcome> replaced = store->put(row);
    QVERIFY2(replaced.ok(), qPrintable(replaced.error().message));
    QVERIFY(!replaced.value().created);
    const Row stored = storeFor(Server::Ours)->row(row.key).value();
    QCOMPARE(stored.category, u"edited"_s);
    QVERIFY(stored.sensitive);
}

// Create or replace is read from the answer's status (201 created, 200 replaced; a
// SPEC-only server's 404 then POST's 201 is a create), the outcome a local put gives.
void TestRemoteDirectoryStore::putReportsCreatedAsTheLocalStoreDoes()
{
    QFETCH(Server, server);
    const auto store = storeFor(server);
    QTemporaryDir dir;
    const auto local = SqliteDirectoryStore::open(dir.filePath(u"local.db"_s));
    QVERIFY2(local.ok(), qPrintable(local.error().message));
    Row row = documentedRow(uniqueKey("PUT_TWICE"), u"fn"_s, u"echo"_s);
    for (const bool created : {true, false}) {
        const StoreResult<WriteOutcome> remote = store->put(row);
        const StoreResult<WriteOutcome> here = local.value()->put(row);
        QVERIFY2(remote.ok(), qPrintable(remote.error().message));
        QVERIFY2(here.ok(), qPrintable(here.error().message));
        QCOMPARE(here.value().created, created);
        QCOMPARE(remote.value().created, created);
        row.category = u"replaced"_s;
    }
    QCOMPARE(storeFor(server)->row(row.key).value().category, u"replaced"_s);
}

#include "tst_remotedirectorystore.moc"
