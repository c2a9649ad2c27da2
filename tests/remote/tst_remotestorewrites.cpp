#include "dispatch/core/isotime.h"
#include "dispatch/core/productversion.h"
#include "dispatch/store/sqldirectorystore.h"
#include "remote/remoteconfirmation.h"
#include "remote/remotedispatcher.h"
#include "remote/rowpatch.h"
#include "remote/serverconnection.h"
#include "remote/servererrors.h"
#include "tests/remote/remotestorefixture.h"
#include "tests/remote/remotetestsupport.h"

#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

// RemoteDirectoryStore's writes against a real `capdeskctl serve` and against a server that
// implements only SPEC §10's table: what is sent, stale reads as conflicts with their row,
// refusals by name, and a call through the article's transcript.
class TestRemoteStoreWrites : public QObject, private RemoteStoreFixture
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void articleTranscript_data() { servers(); }
    void articleTranscript();
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
    void putCreatesAndKeepsLockedFields();
    void putReportsCreatedAsTheLocalStoreDoes_data() { servers(); }
    void putReportsCreatedAsTheLocalStoreDoes();

private:
    QHttpServer m_upstream;
    quint16 m_upstreamPort = 0;
    QUrlQuery m_upstreamSaw;
};

void TestRemoteStoreWrites::initTestCase()
{
    startServers();
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

void TestRemoteStoreWrites::cleanupTestCase()
{
    m_serve.stop();
}

void TestRemoteStoreWrites::articleTranscript()
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

void TestRemoteStoreWrites::replaceSendsOnlyTheChangedFields()
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
    QCOMPARE(patches.first().header("User-Agent"), ProductVersion::product());
    QCOMPARE(store->row(key).value().seq, std::optional<qint64>(7));

    // Nothing changed: nothing is sent, and the row's updated_at comes back.
    m_minimal.clearRequests();
    edited.updatedAt = replaced.value().updatedAt;
    const StoreResult<WriteOutcome> unchanged = store->replace(edited, replaced.value().updatedAt);
    QVERIFY(unchanged.ok());
    QCOMPARE(unchanged.value().updatedAt, replaced.value().updatedAt);
    QVERIFY(m_minimal.requests("PATCH").isEmpty());
}

void TestRemoteStoreWrites::lockedFieldsAreRefusedByName()
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

void TestRemoteStoreWrites::staleReadsAreConflictsWithTheirRow()
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

void TestRemoteStoreWrites::ifMatchIsHonouredOrIgnored()
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

void TestRemoteStoreWrites::hygieneRefusalsCarryFindings()
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

void TestRemoteStoreWrites::applyStopsAtTheFirstFailureAndSaysWhat()
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

void TestRemoteStoreWrites::importRefusesTakenKeysBeforeWriting()
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

// A put against serve is one PUT either way: a free key is created (201), and a replace
// keeps the stored sensitive flag however the row sent says otherwise.
void TestRemoteStoreWrites::putCreatesAndKeepsLockedFields()
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
void TestRemoteStoreWrites::putReportsCreatedAsTheLocalStoreDoes()
{
    QFETCH(Server, server);
    const auto store = storeFor(server);
    QTemporaryDir dir;
    const auto local = SqlDirectoryStore::open(dir.filePath(u"local.db"_s));
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

QTEST_MAIN(TestRemoteStoreWrites)
#include "tst_remotestorewrites.moc"
