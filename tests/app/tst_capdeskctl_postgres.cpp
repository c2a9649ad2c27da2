#include "tests/app/ctltestsupport.h"
#include "tests/support/serveprocess.h"
#include "tests/support/temporarypostgres.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db}).exitCode, 0);
    Run run = ctl({u"put"_s, u"--db"_s, db}, kEchoRow);
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
    QVERIFY2(first.start(db, kServedKey, &error, {u"--signing-key"_s, keyFile}), qPrintable(error));
    QVERIFY2(second.start(db, kServedKey, &error, {u"--signing-key"_s, keyFile}), qPrintable(error));
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

QTEST_GUILESS_MAIN(TestCapdeskctlPostgres)
#include "tst_capdeskctl_postgres.moc"
