#include "tests/app/ctltestsupport.h"
#include "tests/support/serveprocess.h"
#include "tests/support/temporarypostgres.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace CtlTestSupport;

namespace {

// Compliant (SPEC §8): an echo row with its documentation block and an example.
const QByteArray kEchoRow =
    "{\"key\":\"ZZ_PG_ECHO\",\"type\":\"fn\",\"target\":\"echo\",\"category\":\"tools\","
    "\"content\":\"# WHAT: Echo from PostgreSQL\\n# WHEN_TO_USE: tests\\n# ARGS: $1=text\\n"
    "# EX: [ZZ_PG_ECHO]hi[/ZZ_PG_ECHO]\\n# OUTPUT: the text\",\"examples\":\"[\\\"hi\\\"]\"}";

// Two `serve` instances on `db` that sign with the one key file `keyFile`.
bool startBoth(const QString &db, const QString &keyFile, ServeProcess &first, ServeProcess &second,
               QString *error)
{
    const QStringList signing{u"--signing-key"_s, keyFile};
    return first.start(db, kServedKey, error, signing) && second.start(db, kServedKey, error, signing);
}

// A new database holding the echo row, served by two instances signing with `keyFile`;
// empty, with `error`, when any step fails.
QString echoDirectoryServedTwice(TemporaryPostgres &postgres, const QString &keyFile, ServeProcess &first,
                                 ServeProcess &second, QString *error)
{
    const QString db = postgres.createDatabase(error);
    if (db.isEmpty())
        return {};
    if (ctl({u"init"_s, u"--db"_s, db}).exitCode != 0
        || ctl({u"put"_s, u"--db"_s, db}, kEchoRow).exitCode != 0) {
        *error = u"cannot put the echo row into "_s + db;
        return {};
    }
    return startBoth(db, keyFile, first, second, error) ? db : QString();
}

const QString kEchoPath = u"/api/directory/ZZ_PG_ECHO"_s;

// Clients working two servers at once through the REST surface, as agents and editors
// behind a round-robin proxy would: each worker runs its operations one after another,
// alternating servers; a third of them dispatch the echo row, the rest raise its
// planner_rank by one with a read and a PATCH under If-Match. What was acknowledged is
// tallied, so the directory can be checked for it afterwards.
class TwoServerLoad final
{
public:
    struct Tally
    {
        int patched = 0; // acknowledged: 200
        int conflicts = 0; // 412, the row changed since it was read
        int dispatched = 0; // acknowledged with a receipt
        int failed = 0; // no answer (a server killed mid-request) or an unexpected one
        QStringList unexpected;
        QStringList invocationIds;
    };

    TwoServerLoad(QList<QUrl> servers, QByteArray ownerKey)
        : m_servers(std::move(servers)), m_ownerKey(std::move(ownerKey))
    {}

    void start(int workers, int operationsEach)
    {
        m_tally = {};
        m_answered = 0;
        m_remaining = workers;
        for (int worker = 0; worker < workers; ++worker)
            next(worker, operationsEach);
    }
    bool finished() const { return m_remaining == 0; }
    int answered() const { return m_answered; }
    const Tally &tally() const { return m_tally; }
    // Later operations go to the other servers only.
    void drop(const QUrl &server) { m_servers.removeAll(server); }

private:
    QNetworkRequest request(const QUrl &server, const QString &path) const
    {
        QUrl url = server;
        url.setPath(path);
        QNetworkRequest request(url);
        request.setRawHeader("x-terminal-key", m_ownerKey);
        request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
        request.setTransferTimeout(20000);
        return request;
    }

    void next(int worker, int left)
    {
        if (left == 0) {
            --m_remaining;
            return;
        }
        const QUrl server = m_servers.at((worker + left) % m_servers.size());
        const auto then = [this, worker, left] { next(worker, left - 1); };
        if (left % 3 == 0)
            dispatch(server, then);
        else
            raiseRank(server, then);
    }

    void fail(QNetworkReply *reply)
    {
        ++m_tally.failed;
        if (reply->error() != QNetworkReply::RemoteHostClosedError
            && reply->error() != QNetworkReply::ConnectionRefusedError)
            m_tally.unexpected.append(
                u"%1 %2: %3"_s.arg(reply->request().url().toString())
                    .arg(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt())
                    .arg(QString::fromUtf8(reply->readAll())));
    }

    void dispatch(const QUrl &server, const std::function<void()> &then)
    {
        QNetworkReply *reply =
            m_network.post(request(server, u"/api/dispatch"_s), R"({"key":"ZZ_PG_ECHO","body":"load"})");
        QObject::connect(reply, &QNetworkReply::finished, reply, [this, reply, then] {
            reply->deleteLater();
            const QJsonObject answer = QJsonDocument::fromJson(reply->readAll()).object();
            const QString id = answer.value(u"proof"_s).toObject().value(u"invocation_id"_s).toString();
            if (reply->error() == QNetworkReply::NoError && !id.isEmpty()) {
                ++m_tally.dispatched;
                m_tally.invocationIds.append(id);
            } else {
                fail(reply);
            }
            ++m_answered;
            then();
        });
    }

    void raiseRank(const QUrl &server, const std::function<void()> &then)
    {
        QNetworkReply *read = m_network.get(request(server, kEchoPath));
        QObject::connect(read, &QNetworkReply::finished, read, [this, read, server, then] {
            read->deleteLater();
            const QJsonObject row = QJsonDocument::fromJson(read->readAll()).object();
            if (read->error() != QNetworkReply::NoError || row.isEmpty()) {
                fail(read);
                ++m_answered;
                return then();
            }
            QNetworkRequest patch = request(server, kEchoPath);
            patch.setRawHeader("If-Match", row.value(u"updated_at"_s).toString().toUtf8());
            const QByteArray body =
                QJsonDocument(QJsonObject{{u"planner_rank"_s, row.value(u"planner_rank"_s).toInt() + 1}})
                    .toJson(QJsonDocument::Compact);
            QNetworkReply *write = m_network.sendCustomRequest(patch, "PATCH", body);
            QObject::connect(write, &QNetworkReply::finished, write, [this, write, then] {
                write->deleteLater();
                const int status = write->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                if (status == 200)
                    ++m_tally.patched;
                else if (status == 412)
                    ++m_tally.conflicts;
                else
                    fail(write);
                ++m_answered;
                then();
            });
        });
    }

    QNetworkAccessManager m_network;
    QList<QUrl> m_servers;
    QByteArray m_ownerKey;
    Tally m_tally;
    int m_answered = 0;
    int m_remaining = 0;
};

} // namespace

// capdeskctl on a PostgreSQL directory (a real server in a temporary folder): the row
// commands and the log with --db postgresql://…, what a URL may not hold, and two `serve`
// instances on one database signing with one --signing-key file.
class TestCapdeskctlPostgres : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void rowCommandsWorkOnADatabase();
    void urlsThatAreRefused_data();
    void urlsThatAreRefused();
    void twoServersShareOneDirectory();
    void servesAsARoleThatCannotRewriteHistory();
    void twoServersUnderConcurrentLoadLoseNothing();
    void anArchiveTakenUnderLoadKeepsEveryReceipt();

private:
    std::unique_ptr<TemporaryPostgres> m_postgres;
    QTemporaryDir m_dir;
};

void TestCapdeskctlPostgres::initTestCase()
{
    QString why;
    m_postgres = TemporaryPostgres::start(&why);
    QVERIFY2(m_postgres, qPrintable(why));
}

void TestCapdeskctlPostgres::rowCommandsWorkOnADatabase()
{
    const QString db = m_postgres->createDatabase();
    QVERIFY(!db.isEmpty());
    // An empty database is made a directory by init only, as a file is.
    Run run = ctl({u"get"_s, u"ZZ_PG_ECHO"_s, u"--db"_s, db});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains("holds no directory yet"), run.err.constData());
    const QString untouched = m_postgres->exec(
        db.section(u'/', 3).section(u'?', 0, 0),
        u"DO $$ BEGIN IF EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = 'public') "
        "THEN RAISE EXCEPTION 'tables were made'; END IF; END $$"_s);
    QVERIFY2(untouched.isEmpty(), qPrintable(untouched));
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db}).exitCode, 0);
    run = ctl({u"put"_s, u"--db"_s, db}, kEchoRow);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.json().value(u"created"_s).toBool());
    QCOMPARE(ctl({u"patch"_s, u"ZZ_PG_ECHO"_s, u"--db"_s, db}, "{\"seq\":7}").exitCode, 0);
    run = ctl({u"get"_s, u"ZZ_PG_ECHO"_s, u"--db"_s, db});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.json().value(u"seq"_s).toInt(), 7);
    QCOMPARE(ctl({u"lint"_s, u"ZZ_PG_ECHO"_s, u"--db"_s, db}).exitCode, 0);

    // An invoke is receipted in the database, signed with the key file named.
    const QString keyFile = m_dir.filePath(u"rows.pem"_s);
    run = ctl({u"invoke"_s, u"ZZ_PG_ECHO"_s, u"hello"_s, u"--db"_s, db, u"--signing-key"_s, keyFile});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.json().value(u"result"_s).toString(), u"hello"_s);
    const QString id = run.json().value(u"proof"_s).toObject().value(u"invocation_id"_s).toString();
    QVERIFY(QFile::exists(keyFile));
    QCOMPARE(QFile::permissions(keyFile) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
             QFileDevice::Permissions());
    run = ctl({u"confirm"_s, id, u"--db"_s, db});
    QVERIFY2(run.exitCode == 0, run.err.constData());

    // The chains' heads are trusted through the key this machine holds.
    run = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db, u"--signing-key"_s, keyFile});
    QVERIFY2(run.exitCode == 0, run.out.constData());
    QVERIFY(run.json().value(u"intact"_s).toBool());

    // The receipt moves out into a segment file; the database keeps its seal, so the log
    // still verifies and confirm finds the receipt in the file.
    const QString segment = m_dir.filePath(u"pg-old.jsonl"_s);
    const QString before = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    run = ctl({u"receipts"_s, u"archive"_s, u"--before"_s, before, u"--out"_s, segment, u"--db"_s, db,
               u"--signing-key"_s, keyFile});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.json().value(u"archived"_s).toInteger(), 1);
    run = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db, u"--signing-key"_s, keyFile});
    QVERIFY2(run.exitCode == 0, run.out.constData());
    QCOMPARE(run.json().value(u"receipts"_s).toObject().value(u"archived"_s).toInteger(), 1);
    QCOMPARE(ctl({u"confirm"_s, id, u"--db"_s, db}).exitCode, 3);
    run = ctl({u"confirm"_s, id, u"--archive"_s, segment, u"--db"_s, db, u"--signing-key"_s, keyFile});
    QVERIFY2(run.exitCode == 0, run.out.constData());
    QVERIFY(run.json().value(u"confirmed"_s).toBool());

    // An MCP client is told a confirm command that names the database as given, not as a
    // file path under the current folder; run from elsewhere, it confirms.
    const QByteArray session =
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
        R"("capabilities":{},"clientInfo":{"name":"pgtest","version":"1"}}})"
        "\n"
        R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
        "\n"
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ZZ_PG_ECHO","arguments":{"body":"mcp"}}})"
        "\n";
    run = ctl({u"mcp"_s, u"--db"_s, db, u"--signing-key"_s, keyFile}, session);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject called =
        QJsonDocument::fromJson(run.out.trimmed().split('\n').last()).object().value(u"result"_s).toObject();
    QCOMPARE(called.value(u"isError"_s), QJsonValue(false));
    const QString command = called.value(u"_meta"_s).toObject().value(u"capdesk/confirm"_s).toString();
    QVERIFY2(command.endsWith(u" --db '"_s + db + u"'"_s), qPrintable(command));
    const ProcessRun::Result shell = ProcessRun::run(u"/bin/sh"_s, {u"-c"_s, u"cd / && "_s + command});
    QVERIFY2(shell.exitCode == 0, shell.err.constData());
    QVERIFY(QJsonDocument::fromJson(shell.out).object().value(u"confirmed"_s).toBool());

    QCOMPARE(ctl({u"delete"_s, u"ZZ_PG_ECHO"_s, u"--db"_s, db}).exitCode, 0);
    QCOMPARE(ctl({u"get"_s, u"ZZ_PG_ECHO"_s, u"--db"_s, db}).exitCode, 3);
}

void TestCapdeskctlPostgres::urlsThatAreRefused_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("said");
    const QString socket = m_postgres->socketDir();
    QTest::newRow("a password") << u"postgresql://capdesk:hunter2@localhost/d"_s << u"password"_s;
    QTest::newRow("an empty password") << u"postgresql://capdesk:@localhost/d"_s << u"password"_s;
    // QUrl refuses these, and its own message would quote the password back.
    QTest::newRow("a password, and a bad port")
        << u"postgresql://capdesk:hunter2@localhost:99999/d"_s << u"password"_s;
    QTest::newRow("a password with a space")
        << u"postgresql://capdesk:hun ter2@localhost/d"_s << u"password"_s;
    // libpq would stop reading at the NUL, dropping what follows it.
    QTest::newRow("a NUL in an option")
        << u"postgresql://capdesk@/d?host=%1&application_name=a%00&sslmode=verify-full"_s.arg(socket)
        << u"not a usable PostgreSQL URL"_s;
    QTest::newRow("a password option")
        << u"postgresql://capdesk@/d?host=%1&password=x"_s.arg(socket) << u"password"_s;
    QTest::newRow("no database") << u"postgresql://capdesk@localhost/"_s << u"names no database"_s;
    QTest::newRow("an unknown option")
        << u"postgresql://capdesk@/d?host=%1&sslfoo=1"_s.arg(socket) << u"'sslfoo'"_s;
    QTest::newRow("a bad sslmode") << u"postgresql://capdesk@/d?host=%1&sslmode=maybe"_s.arg(socket)
                                   << u"sslmode"_s;
    QTest::newRow("a timeout out of range")
        << u"postgresql://capdesk@/d?host=%1&connect_timeout=0"_s.arg(socket) << u"connect_timeout"_s;
    QTest::newRow("an option with a space")
        << u"postgresql://capdesk@/d?host=%1&application_name=a%20b"_s.arg(socket) << u"space"_s;
    QTest::newRow("no host") << u"postgresql://capdesk@/d"_s << u"names no host"_s;
    QTest::newRow("a missing database")
        << u"postgresql://capdesk@/absent?host=%1"_s.arg(socket) << u"absent"_s;
}

void TestCapdeskctlPostgres::urlsThatAreRefused()
{
    QFETCH(QString, url);
    QFETCH(QString, said);
    const Run run = ctl({u"export"_s, u"--db"_s, url});
    QVERIFY(run.exitCode != 0);
    QVERIFY2(QString::fromUtf8(run.err).contains(said), run.err.constData());
    QVERIFY2(!run.err.contains("hunter2"), run.err.constData());
}

void TestCapdeskctlPostgres::twoServersShareOneDirectory()
{
    const QString db = m_postgres->createDatabase();
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db}).exitCode, 0);
    const QString keyFile = m_dir.filePath(u"shared.pem"_s);
    ServeProcess first;
    ServeProcess second;
    QString error;
    QVERIFY2(startBoth(db, keyFile, first, second, &error), qPrintable(error));
    const auto on = [](const ServeProcess &serve, QStringList arguments, const QByteArray &stdinData = {}) {
        arguments << u"--server"_s << serve.baseUrl().toString();
        return ctlWithKey(arguments, kServedKey, stdinData);
    };
    ProcessRun::Result run = on(first, {u"put"_s}, kEchoRow);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    // A row written through one is read through the other at once.
    run = on(second, {u"get"_s, u"ZZ_PG_ECHO"_s});
    QCOMPARE(run.exitCode, 0);

    // Receipts written by one are confirmed by the other: one key, one database.
    QStringList ids;
    for (const ServeProcess *serve : {&first, &second}) {
        run = on(*serve, {u"invoke"_s, u"ZZ_PG_ECHO"_s, u"hi"_s});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        ids.append(QJsonDocument::fromJson(run.out)
                       .object()
                       .value(u"proof"_s)
                       .toObject()
                       .value(u"invocation_id"_s)
                       .toString());
    }
    for (const QString &id : ids) {
        for (const ServeProcess *serve : {&first, &second}) {
            run = ctlWithKey({u"confirm"_s, id, u"--server"_s, serve->baseUrl().toString()}, {});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"confirmed"_s), QJsonValue(true));
        }
    }

    // Writes through both, alternating: every acknowledged one is in the one log.
    for (int i = 1; i <= 10; ++i) {
        run = on(i % 2 ? first : second, {u"patch"_s, u"ZZ_PG_ECHO"_s},
                 QByteArray("{\"seq\":") + QByteArray::number(i) + '}');
        QVERIFY2(run.exitCode == 0, run.err.constData());
    }
    // One dies mid-life; the other keeps answering, and nothing acknowledged is lost.
    first.kill();
    run = on(second, {u"get"_s, u"ZZ_PG_ECHO"_s});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"seq"_s).toInt(), 10);
    // Without the servers' key the heads cannot be checked, and the check says so; it
    // makes no key of its own, which would list a key that signed nothing.
    const Run keyless = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db});
    QCOMPARE(keyless.exitCode, 1);
    QCOMPARE(findingCodes(keyless.json()), QStringList{u"no_trusted_key"_s});
    const QString oneKey = m_postgres->exec(
        db.section(u'/', 3).section(u'?', 0, 0),
        u"DO $$ BEGIN IF (SELECT COUNT(*) FROM signing_keys) <> 1 THEN RAISE EXCEPTION 'a key was added'; "
        "END IF; END $$"_s);
    QVERIFY2(oneKey.isEmpty(), qPrintable(oneKey));
    const Run log = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db, u"--signing-key"_s, keyFile});
    QVERIFY2(log.exitCode == 0, log.out.constData());
    QVERIFY(log.json().value(u"intact"_s).toBool());
    // At least the put and the 10 patches (the receipt chains add events of their own).
    QVERIFY(log.json().value(u"checked"_s).toInt() >= 11);
}

void TestCapdeskctlPostgres::servesAsARoleThatCannotRewriteHistory()
{
    // The README's role: the owner migrates, `serve` runs as capdesk_serve with the grants
    // of packaging/postgresql/serve-role.sql.
    const QString db = m_postgres->createDatabase();
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db}).exitCode, 0);
    const QString name = db.section(u'/', 3).section(u'?', 0, 0);
    QFile grants(QStringLiteral(CAPDESK_SOURCE_DIR "/packaging/postgresql/serve-role.sql"));
    QVERIFY(grants.open(QIODevice::ReadOnly));
    const QString granted = m_postgres->exec(name, QString::fromUtf8(grants.readAll()));
    QVERIFY2(granted.isEmpty(), qPrintable(granted));

    const QString asServer = m_postgres->urlOf(name, u"capdesk_serve"_s);
    ServeProcess serve;
    QString error;
    QVERIFY2(serve.start(asServer, kServedKey, &error, {u"--signing-key"_s, m_dir.filePath(u"role.pem"_s)}),
             qPrintable(error));
    const auto on = [&](QStringList arguments, const QByteArray &stdinData = {}) {
        arguments << u"--server"_s << serve.baseUrl().toString();
        return ctlWithKey(arguments, kServedKey, stdinData);
    };
    ProcessRun::Result run = on({u"put"_s}, kEchoRow);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    run = on({u"invoke"_s, u"ZZ_PG_ECHO"_s, u"hi"_s});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(on({u"patch"_s, u"ZZ_PG_ECHO"_s}, "{\"seq\":2}").exitCode, 0);

    for (const QString &sql :
         {u"DELETE FROM receipts"_s, u"UPDATE events SET actor = 'x'"_s, u"TRUNCATE events"_s,
          u"ALTER TABLE receipts DISABLE TRIGGER ALL"_s, u"DROP TABLE events"_s}) {
        const QString refused = m_postgres->exec(name, sql, u"capdesk_serve"_s);
        QVERIFY2(refused.contains(u"permission denied"_s) || refused.contains(u"must be owner"_s),
                 qPrintable(sql + u": "_s + refused));
    }
}

void TestCapdeskctlPostgres::twoServersUnderConcurrentLoadLoseNothing()
{
    const QString keyFile = m_dir.filePath(u"load.pem"_s);
    ServeProcess first;
    ServeProcess second;
    QString error;
    const QString db = echoDirectoryServedTwice(*m_postgres, keyFile, first, second, &error);
    QVERIFY2(!db.isEmpty(), qPrintable(error));
    const auto rank = [&db] {
        return ctl({u"get"_s, u"ZZ_PG_ECHO"_s, u"--db"_s, db}).json().value(u"planner_rank"_s).toInt();
    };
    const auto receiptCount = [&db] {
        return ctl({u"receipts"_s, u"--key"_s, u"ZZ_PG_ECHO"_s, u"--db"_s, db})
            .json()
            .value(u"receipts"_s)
            .toArray()
            .size();
    };
    const auto rowEvents = [&db] {
        return ctl({u"log"_s, u"--key"_s, u"ZZ_PG_ECHO"_s, u"--db"_s, db})
            .json()
            .value(u"events"_s)
            .toArray()
            .size();
    };
    const auto confirmedOn = [](const ServeProcess &serve, const QStringList &ids) {
        QNetworkAccessManager network;
        for (const QString &id : ids) {
            QUrl url = serve.baseUrl();
            url.setPath(u"/api/dispatch"_s);
            url.setQuery(u"confirm="_s + id);
            QNetworkReply *reply = network.get(QNetworkRequest(url));
            if (!QTest::qWaitFor([reply] { return reply->isFinished(); }, 20000))
                return false;
            reply->deleteLater();
            if (QJsonDocument::fromJson(reply->readAll()).object().value(u"confirmed"_s) != QJsonValue(true))
                return false;
        }
        return true;
    };

    // Eight clients on both servers at once, all on one row: every acknowledged PATCH is
    // there (the rank counts them exactly, and each is one event), the losers of a race
    // are 412, and each acknowledged dispatch has exactly one receipt, which either server
    // confirms.
    const int startRank = rank();
    TwoServerLoad load({first.baseUrl(), second.baseUrl()}, kServedKey);
    load.start(8, 30);
    QVERIFY(QTest::qWaitFor([&load] { return load.finished(); }, 120000));
    TwoServerLoad::Tally tally = load.tally();
    QVERIFY2(tally.failed == 0, qPrintable(tally.unexpected.join(u'\n')));
    qInfo("%d patches acknowledged, %d refused as conflicts, %d dispatches", tally.patched, tally.conflicts,
          tally.dispatched);
    QVERIFY(tally.patched > 0);
    QCOMPARE(tally.patched + tally.conflicts + tally.dispatched, 8 * 30);
    QCOMPARE(rank(), startRank + tally.patched);
    QCOMPARE(rowEvents(), 1 + tally.patched);
    QCOMPARE(receiptCount(), tally.dispatched);
    QCOMPARE(QSet<QString>(tally.invocationIds.begin(), tally.invocationIds.end()).size(), tally.dispatched);
    QVERIFY(confirmedOn(first, tally.invocationIds));
    QVERIFY(confirmedOn(second, tally.invocationIds));

    // One server is killed (SIGKILL) in the middle of the same load: the other keeps
    // answering, and nothing acknowledged is lost. A request in flight to the dead one
    // may have landed before it died, so the rank may exceed the acknowledged count by
    // at most the requests that got no answer.
    const int rankBefore = rank();
    const int receiptsBefore = receiptCount();
    load.start(8, 30);
    QVERIFY(QTest::qWaitFor([&load] { return load.answered() >= 40; }, 60000));
    first.kill();
    load.drop(first.baseUrl());
    const int answeredAtKill = load.answered();
    QVERIFY(QTest::qWaitFor([&load] { return load.finished(); }, 120000));
    tally = load.tally();
    qInfo("after the kill: %d patches, %d conflicts, %d dispatches, %d unanswered", tally.patched,
          tally.conflicts, tally.dispatched, tally.failed);
    QVERIFY2(tally.unexpected.isEmpty(), qPrintable(tally.unexpected.join(u'\n')));
    QVERIFY(load.answered() > answeredAtKill + 100);
    QVERIFY(rank() >= rankBefore + tally.patched);
    QVERIFY(rank() <= rankBefore + tally.patched + tally.failed);
    QVERIFY(receiptCount() >= receiptsBefore + tally.dispatched);
    QVERIFY(receiptCount() <= receiptsBefore + tally.dispatched + tally.failed);
    QVERIFY(confirmedOn(second, tally.invocationIds));

    const Run log = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db, u"--signing-key"_s, keyFile});
    QVERIFY2(log.exitCode == 0, log.out.constData());
}

// `receipts archive` while both servers dispatch: the archive deletes only what its seal
// covers, so a receipt written meanwhile stays, and every acknowledged dispatch has
// exactly one receipt, in the database or in the segment file.
void TestCapdeskctlPostgres::anArchiveTakenUnderLoadKeepsEveryReceipt()
{
    const QString keyFile = m_dir.filePath(u"archive-load.pem"_s);
    ServeProcess first;
    ServeProcess second;
    QString error;
    const QString db = echoDirectoryServedTwice(*m_postgres, keyFile, first, second, &error);
    QVERIFY2(!db.isEmpty(), qPrintable(error));

    TwoServerLoad load({first.baseUrl(), second.baseUrl()}, kServedKey);
    load.start(8, 60);
    QVERIFY(QTest::qWaitFor([&load] { return load.answered() >= 90; }, 60000));
    const QString segment = m_dir.filePath(u"under-load.jsonl"_s);
    QProcess archive;
    archive.start(QStringLiteral(CAPDESKCTL_PATH),
                  {u"receipts"_s, u"archive"_s, u"--before"_s,
                   QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs), u"--out"_s, segment,
                   u"--db"_s, db, u"--signing-key"_s, keyFile});
    const int answeredAtArchive = load.answered();
    QVERIFY(QTest::qWaitFor([&archive] { return archive.state() == QProcess::NotRunning; }, 60000));
    const int answeredMeanwhile = load.answered() - answeredAtArchive;
    QVERIFY2(archive.exitStatus() == QProcess::NormalExit && archive.exitCode() == 0,
             archive.readAllStandardError().constData());
    QVERIFY2(answeredMeanwhile > 0, "the servers answered nothing while the archive ran");
    const qint64 archived =
        QJsonDocument::fromJson(archive.readAllStandardOutput()).object().value(u"archived"_s).toInteger();
    QVERIFY(QTest::qWaitFor([&load] { return load.finished(); }, 120000));
    const TwoServerLoad::Tally tally = load.tally();
    qInfo("%lld receipts archived while %d operations were answered; %d dispatches in all", archived,
          answeredMeanwhile, tally.dispatched);
    QVERIFY2(tally.failed == 0, qPrintable(tally.unexpected.join(u'\n')));
    QVERIFY(archived > 0);
    QVERIFY(archived < tally.dispatched);

    QSet<QString> kept;
    const QJsonArray listed = ctl({u"receipts"_s, u"--key"_s, u"ZZ_PG_ECHO"_s, u"--db"_s, db})
                                  .json()
                                  .value(u"receipts"_s)
                                  .toArray();
    for (const QJsonValue &receipt : listed)
        kept.insert(receipt.toObject().value(u"invocation_id"_s).toString());
    QSet<QString> moved;
    QFile file(segment);
    QVERIFY(file.open(QIODevice::ReadOnly));
    while (!file.atEnd()) {
        const QJsonObject line = QJsonDocument::fromJson(file.readLine()).object();
        if (line.contains(u"receipt"_s))
            moved.insert(QJsonDocument::fromJson(line.value(u"receipt"_s).toString().toUtf8())
                             .object()
                             .value(u"invocation_id"_s)
                             .toString());
    }
    QCOMPARE(moved.size(), archived);
    QVERIFY2(!kept.intersects(moved), "a receipt is both in the database and in the segment");
    QCOMPARE(kept + moved, QSet<QString>(tally.invocationIds.begin(), tally.invocationIds.end()));
    QCOMPARE(kept.size() + moved.size(), tally.dispatched);

    const Run log = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db, u"--signing-key"_s, keyFile});
    QVERIFY2(log.exitCode == 0, log.out.constData());
    QCOMPARE(log.json().value(u"receipts"_s).toObject().value(u"archived"_s).toInteger(), archived);
    const Run verified = ctl({u"verify-receipt"_s, segment, u"--db"_s, db, u"--signing-key"_s, keyFile});
    QVERIFY2(verified.exitCode == 0, verified.out.constData());
}

QTEST_GUILESS_MAIN(TestCapdeskctlPostgres)
#include "tst_capdeskctl_postgres.moc"
