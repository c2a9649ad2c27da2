#include "tests/app/ctltestsupport.h"
#include "tests/support/temporarypostgres.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace CtlTestSupport;

namespace {

// The database name in a TemporaryPostgres URL (postgresql://capdesk@:5432/NAME?host=…).
QString databaseName(const QString &url)
{
    return url.section(u'/', 3).section(u'?', 0, 0);
}

// Runs `sql` on a directory file as an outside tool would; the error text, empty when it ran.
QString execOnFile(const QString &path, const QStringList &statements)
{
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"tst-migrate-outside"_s);
        db.setDatabaseName(path);
        if (!db.open())
            return db.lastError().text();
        QSqlQuery query(db);
        for (const QString &statement : statements) {
            if (!query.exec(statement)) {
                error = query.lastError().text();
                break;
            }
        }
    }
    QSqlDatabase::removeDatabase(u"tst-migrate-outside"_s);
    return error;
}

QString invocationIdOf(const Run &run)
{
    return run.json().value(u"proof"_s).toObject().value(u"invocation_id"_s).toString();
}

} // namespace

// `capdeskctl migrate`: a whole directory, history and tokens included, moved from a
// SQLite file to a real PostgreSQL database (a temporary server) and back, verified; and
// what it refuses, leaving both sides as they were.
class TestCapdeskctlMigrate : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void movesAFileToADatabaseAndBack();
    void refusesADestinationThatIsNotEmpty();
    void refusesASourceWhoseHistoryIsBroken_data();
    void refusesASourceWhoseHistoryIsBroken();
    void movesMoreRowsThanOnePage();
    void aRowTheDatabaseRefusesLeavesNothingBehind();
    void refusesOneDirectoryNamedTwice();

private:
    // A sample directory file with one receipt and one token; `id` is the receipt's.
    QString sampleFile(const QString &name, QString *id);

    std::unique_ptr<TemporaryPostgres> m_postgres;
    QTemporaryDir m_dir;
};

void TestCapdeskctlMigrate::initTestCase()
{
    QString why;
    m_postgres = TemporaryPostgres::start(&why);
    QVERIFY2(m_postgres, qPrintable(why));
}

QString TestCapdeskctlMigrate::sampleFile(const QString &name, QString *id)
{
    QString path = m_dir.filePath(name);
    if (ctl({u"init"_s, u"--sample"_s, u"--db"_s, path}).exitCode != 0)
        return {};
    const Run invoked = ctl({u"invoke"_s, u"ECHO"_s, u"before the move"_s, u"--db"_s, path});
    *id = invocationIdOf(invoked);
    const Run token = ctl({u"token"_s, u"create"_s, u"--audience"_s, u"agent-a"_s, u"--keys"_s, u"ECHO"_s,
                           u"--risk-ceiling"_s, u"low"_s, u"--db"_s, path});
    if (invoked.exitCode != 0 || token.exitCode != 0 || id->isEmpty())
        return {};
    return path;
}

void TestCapdeskctlMigrate::movesAFileToADatabaseAndBack()
{
    QString id;
    const QString file = sampleFile(u"there.db"_s, &id);
    QVERIFY(!file.isEmpty());
    const QString db = m_postgres->createDatabase();
    QVERIFY(!db.isEmpty());

    Run run = ctl({u"migrate"_s, u"--from"_s, file, u"--to"_s, db});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.json().value(u"verified"_s).toBool());
    const QJsonObject tables = run.json().value(u"tables"_s).toObject();
    QCOMPARE(tables.value(u"directory"_s).toObject().value(u"rows"_s).toInt(), 44);
    QCOMPARE(tables.value(u"receipts"_s).toObject().value(u"rows"_s).toInt(), 1);
    QCOMPARE(tables.value(u"capability_tokens"_s).toObject().value(u"rows"_s).toInt(), 1);
    QVERIFY(tables.value(u"events"_s).toObject().value(u"rows"_s).toInt() >= 45);
    // A key file beside the source goes to where the database's key is looked for; a key
    // in the keychain (the README's test command runs one) is found from both already.
    const QJsonObject key = run.json().value(u"signing_key"_s).toObject();
    const bool keyInFile = QFile::exists(file + u".signing-key"_s);
    QCOMPARE(key.value(u"carried"_s).toBool(), keyInFile);
    if (!keyInFile)
        QVERIFY2(key.value(u"reason"_s).toString().contains(u"keychain"_s),
                 qPrintable(key.value(u"reason"_s).toString()));

    // Rows, tokens and history read the same there; the old receipt is confirmed there.
    QCOMPARE(ctl({u"export"_s, u"--db"_s, db}).out, ctl({u"export"_s, u"--db"_s, file}).out);
    QCOMPARE(ctl({u"token"_s, u"list"_s, u"--db"_s, db}).out,
             ctl({u"token"_s, u"list"_s, u"--db"_s, file}).out);
    run = ctl({u"confirm"_s, id, u"--db"_s, db});
    QVERIFY2(run.exitCode == 0, run.out.constData());
    QCOMPARE(run.json().value(u"confirmed"_s), QJsonValue(true));
    // The database goes on where the file stopped: a new receipt and a write after the
    // copied ones, and the whole log still verifies with the key carried along.
    run = ctl({u"invoke"_s, u"ECHO"_s, u"after the move"_s, u"--db"_s, db});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(ctl({u"patch"_s, u"ECHO"_s, u"--db"_s, db}, "{\"planner_rank\":7}").exitCode, 0);
    run = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db});
    QVERIFY2(run.exitCode == 0, run.out.constData());
    QCOMPARE(run.json().value(u"receipts"_s).toObject().value(u"checked"_s).toInt(), 2);
    // Archived there, the receipts travel on as their seals.
    const QString segment = m_dir.filePath(u"moved.jsonl"_s);
    run = ctl({u"receipts"_s, u"archive"_s, u"--before"_s,
               QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs), u"--out"_s, segment, u"--db"_s,
               db});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.json().value(u"archived"_s).toInt(), 2);

    // And back to a new file, which verifies as well and has everything the database had.
    const QString back = m_dir.filePath(u"back.db"_s);
    run = ctl({u"migrate"_s, u"--from"_s, db, u"--to"_s, back});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(ctl({u"export"_s, u"--db"_s, back}).out, ctl({u"export"_s, u"--db"_s, db}).out);
    QCOMPARE(ctl({u"log"_s, u"--db"_s, back}).out, ctl({u"log"_s, u"--db"_s, db}).out);
    run = ctl({u"log"_s, u"--verify"_s, u"--db"_s, back});
    QVERIFY2(run.exitCode == 0, run.out.constData());
    QCOMPARE(run.json().value(u"receipts"_s).toObject().value(u"archived"_s).toInt(), 2);
    QCOMPARE(ctl({u"verify-receipt"_s, segment, u"--db"_s, back}).json().value(u"archive_id"_s).toInt(), 1);
    QCOMPARE(QFile::exists(back + u".signing-key"_s), keyInFile);
    if (keyInFile)
        QCOMPARE(QFile::permissions(back + u".signing-key"_s)
                     & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                 QFileDevice::Permissions());
}

void TestCapdeskctlMigrate::refusesADestinationThatIsNotEmpty()
{
    QString id;
    const QString file = sampleFile(u"full.db"_s, &id);
    QVERIFY(!file.isEmpty());
    const QString db = m_postgres->createDatabase();
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db}).exitCode, 0);
    QCOMPARE(ctl({u"put"_s, u"--db"_s, db}, ctl({u"get"_s, u"ECHO"_s, u"--db"_s, file}).out).exitCode, 0);
    const QByteArray before = ctl({u"log"_s, u"--db"_s, db}).out;

    Run run = ctl({u"migrate"_s, u"--from"_s, file, u"--to"_s, db});
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains("is not empty (its directory table has 1 rows)"), run.err.constData());
    QCOMPARE(ctl({u"log"_s, u"--db"_s, db}).out, before);

    // A file that is a directory already is refused the same way.
    const QString other = sampleFile(u"other.db"_s, &id);
    const QByteArray otherBefore = ctl({u"log"_s, u"--db"_s, other}).out;
    run = ctl({u"migrate"_s, u"--from"_s, file, u"--to"_s, other});
    QCOMPARE(run.exitCode, 4);
    QCOMPARE(ctl({u"log"_s, u"--db"_s, other}).out, otherBefore);
}

void TestCapdeskctlMigrate::refusesASourceWhoseHistoryIsBroken_data()
{
    QTest::addColumn<QStringList>("tampering");
    QTest::addColumn<QString>("finding");
    QTest::addRow("an event rewritten")
        << QStringList{u"DROP TRIGGER events_refuse_update"_s,
                       u"UPDATE events SET actor = 'someone else' WHERE seq = 3"_s}
        << u"event_chain_broken"_s;
    // The file lists the public keys; a head re-signed by a key added to that list is
    // still refused, since only the key this machine holds is trusted (as log --verify).
    QTest::addRow("a chain head's signature replaced")
        << QStringList{u"UPDATE receipt_chain_heads SET signature = 'AAAA' || substr(signature, 5)"_s}
        << u"receipt_chain_head_forged"_s;
}

void TestCapdeskctlMigrate::refusesASourceWhoseHistoryIsBroken()
{
    QFETCH(QStringList, tampering);
    QFETCH(QString, finding);
    QString id;
    const QString file = sampleFile(
        u"tampered-%1.db"_s.arg(QString::fromUtf8(QTest::currentDataTag())).replace(u' ', u'-'), &id);
    QVERIFY(!file.isEmpty());
    const QString error = execOnFile(file, tampering);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString target = m_dir.filePath(u"never.db"_s);
    const Run run = ctl({u"migrate"_s, u"--from"_s, file, u"--to"_s, target});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.json().value(u"error"_s).toString(), u"source_not_intact"_s);
    QVERIFY2(findingCodes(run.json()).contains(finding), run.out.constData());
    QVERIFY(!QFile::exists(target));
}

void TestCapdeskctlMigrate::movesMoreRowsThanOnePage()
{
    // The copy and its comparison read 5,000 rows at a time; 12,001 rows take three pages.
    const QString file = m_dir.filePath(u"pages.db"_s);
    QProcess generator;
    generator.start(u"python3"_s,
                    {QStringLiteral(CAPDESK_GENERATOR), u"--rows"_s, u"12001"_s, u"--out"_s, file});
    QVERIFY(generator.waitForFinished(120000));
    QCOMPARE(generator.exitCode(), 0);
    const QString db = m_postgres->createDatabase();
    Run run = ctl({u"migrate"_s, u"--from"_s, file, u"--to"_s, db});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(
        run.json().value(u"tables"_s).toObject().value(u"directory"_s).toObject().value(u"rows"_s).toInt(),
        12001);
    const QString back = m_dir.filePath(u"pages-back.db"_s);
    run = ctl({u"migrate"_s, u"--from"_s, db, u"--to"_s, back});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(ctl({u"export"_s, u"--db"_s, back}).out, ctl({u"export"_s, u"--db"_s, file}).out);
}

void TestCapdeskctlMigrate::aRowTheDatabaseRefusesLeavesNothingBehind()
{
    // SQLite keeps a text in an INTEGER column; PostgreSQL's BIGINT refuses it, so the
    // copy fails part-way and must leave the database as empty as it found it.
    QString id;
    const QString file = sampleFile(u"loose.db"_s, &id);
    QVERIFY(!file.isEmpty());
    const QString error =
        execOnFile(file, {u"UPDATE directory_outside_writes SET logging = 1"_s,
                          u"UPDATE directory SET planner_rank = 'high' WHERE key = 'ECHO'"_s,
                          u"UPDATE directory_outside_writes SET logging = 0"_s});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString db = m_postgres->createDatabase();
    Run run = ctl({u"migrate"_s, u"--from"_s, file, u"--to"_s, db});
    QVERIFY(run.exitCode != 0);
    QVERIFY2(run.err.contains("cannot copy row") && run.err.contains("directory"), run.err.constData());
    const QString name = databaseName(db);
    for (const QString &table : {u"directory"_s, u"receipts"_s, u"events"_s, u"capability_tokens"_s}) {
        const QString refused =
            m_postgres->exec(name, u"DO $$ BEGIN IF EXISTS (SELECT 1 FROM %1) THEN RAISE EXCEPTION "
                                   "'left behind'; END IF; END $$"_s.arg(table));
        QVERIFY2(refused.isEmpty(), qPrintable(table + u": "_s + refused));
    }
    // Into a new file (which keeps any text) the same source moves whole.
    const QString copy = m_dir.filePath(u"loose-copy.db"_s);
    run = ctl({u"migrate"_s, u"--from"_s, file, u"--to"_s, copy});
    QVERIFY2(run.exitCode == 0, run.err.constData());
}

void TestCapdeskctlMigrate::refusesOneDirectoryNamedTwice()
{
    QString id;
    const QString file = sampleFile(u"twice.db"_s, &id);
    QVERIFY(!file.isEmpty());
    QCOMPARE(ctl({u"migrate"_s, u"--from"_s, file, u"--to"_s, file}).exitCode, 2);
    const QString link = m_dir.filePath(u"twice-link.db"_s);
    QVERIFY(QFile::link(file, link));
    QCOMPARE(ctl({u"migrate"_s, u"--from"_s, file, u"--to"_s, link}).exitCode, 2);
    // One database named two ways is refused at once, not left waiting on its own lock.
    const QString db = m_postgres->createDatabase();
    QCOMPARE(ctl({u"migrate"_s, u"--from"_s, file, u"--to"_s, db}).exitCode, 0);
    const Run same = ctl({u"migrate"_s, u"--from"_s, db, u"--to"_s, db + u"&application_name=again"_s});
    QCOMPARE(same.exitCode, 4);
    QVERIFY2(same.err.contains("is not empty"), same.err.constData());
    QCOMPARE(ctl({u"migrate"_s, u"--from"_s, file}).exitCode, 2);
    const Run missing = ctl({u"migrate"_s, u"--from"_s, m_dir.filePath(u"absent.db"_s), u"--to"_s,
                             m_dir.filePath(u"absent-copy.db"_s)});
    QCOMPARE(missing.exitCode, 3);
    QVERIFY(!QFile::exists(m_dir.filePath(u"absent-copy.db"_s)));
}

QTEST_GUILESS_MAIN(TestCapdeskctlMigrate)
#include "tst_capdeskctl_migrate.moc"
