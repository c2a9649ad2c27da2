#include "dispatch/core/isotime.h"
#include "dispatch/core/steppingclock.h"
#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/row/rowschema.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/schemamigrator.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/store/sqlitedirectoryengine.h"
#include "tests/support/fixturegenerator.h"
#include "tests/support/rawsql.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>

namespace {

QByteArray fileHash(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

// Every value of every row, read with plain SQL, for before/after comparisons.
QList<QVariantList> readTable(const QString &path, const QStringList &columns)
{
    QList<QVariantList> rows;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        if (!db.open())
            return rows;
        QSqlQuery query(db);
        query.exec(QStringLiteral("SELECT %1 FROM directory ORDER BY key").arg(columns.join(u',')));
        while (query.next()) {
            QVariantList row;
            for (int i = 0; i < columns.size(); ++i)
                row.append(query.value(i));
            rows.append(row);
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
    return rows;
}

void execRaw(const QString &path, const QStringList &statements)
{
    const QString failure = RawSql::exec(path, statements);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

} // namespace

// What only a directory FILE can be: in WAL mode, migrated in place from production's files,
// refused (and left byte for byte as it was) when it is not a directory or is too new, and
// read whole or not at all when a page is corrupt. The store's semantics on every engine are
// in tst_sqldirectorystore.
class TestSqliteDirectoryEngine : public QObject
{
    Q_OBJECT

private slots:
    void usesWriteAheadLogging();
    void migratesAProductionFileInPlace();
    void migratesAnOldSixColumnFile();
    void refusesFilesThatAreNotDirectories_data();
    void refusesFilesThatAreNotDirectories();
    void refusesANewerSchema();
    void partialReadsAreErrors();

private:
    QTemporaryDir m_dir;
    int m_counter = 0;
    QString freshPath() { return m_dir.filePath(QStringLiteral("d%1.db").arg(++m_counter)); }
};

void TestSqliteDirectoryEngine::usesWriteAheadLogging()
{
    auto opened = SqlDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    QSqlQuery query(opened.value()->database());
    QVERIFY(query.exec(QStringLiteral("PRAGMA journal_mode")) && query.next());
    QCOMPARE(query.value(0).toString(), QStringLiteral("wal"));
}

void TestSqliteDirectoryEngine::migratesAProductionFileInPlace()
{
    const QString path = freshPath();
    const QString error = FixtureGenerator::makeDatabase(path, 891);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QList<QVariantList> before = readTable(path, RowSchema::columns());
    QCOMPARE(before.size(), 891);

    auto opened = SqlDirectoryStore::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    QCOMPARE(SchemaMigrator(opened.value()->database()).currentVersion(), SchemaMigrator::latestVersion());
    opened = StoreError();
    QCOMPARE(readTable(path, RowSchema::columns()), before);
}

void TestSqliteDirectoryEngine::migratesAnOldSixColumnFile()
{
    const QString path = freshPath();
    execRaw(path,
            {QStringLiteral("CREATE TABLE directory (key TEXT PRIMARY KEY, type TEXT NOT NULL, target TEXT, "
                            "auth TEXT, content TEXT, updated_at TEXT NOT NULL)"),
             QStringLiteral("INSERT INTO directory VALUES ('NOW','fn','now',NULL,'# WHAT: "
                            "time','2026-01-01T00:00:00.000Z')"),
             QStringLiteral(
                 "INSERT INTO directory VALUES ('ECHO','fn','echo','','x','2026-01-02T00:00:00.000Z')")});
    auto opened = SqlDirectoryStore::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    const StoreResult<Row> now = opened.value()->row(QStringLiteral("NOW"));
    QVERIFY(now.ok());
    QCOMPARE(now.value().target, QStringLiteral("now"));
    QVERIFY(now.value().auth.isNull());
    QCOMPARE(now.value().updatedAt, QStringLiteral("2026-01-01T00:00:00.000Z"));
    QVERIFY(now.value().enabled);
    QCOMPARE(now.value().plannerRank, 100);
    QVERIFY(now.value().createdAt.isNull());
    const QSqlRecord record = opened.value()->database().record(QStringLiteral("directory"));
    QVERIFY(record.contains(QStringLiteral("created_at")));
    QVERIFY(record.contains(QStringLiteral("includes")));
}

void TestSqliteDirectoryEngine::refusesFilesThatAreNotDirectories_data()
{
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<QString>("expected");
    QTest::addRow("text file") << QByteArray("text") << QStringLiteral("not a SQLite database");
    QTest::addRow("other tables") << QByteArray("other")
                                  << QStringLiteral("no 'directory' table (tables: notes)");
    QTest::addRow("corrupt") << QByteArray("corrupt") << QStringLiteral("corrupt");
}

void TestSqliteDirectoryEngine::refusesFilesThatAreNotDirectories()
{
    QFETCH(QByteArray, kind);
    QFETCH(QString, expected);
    const QString path = freshPath();
    if (kind == "text") {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("key,type\nNOW,fn\n");
    } else if (kind == "other") {
        execRaw(path, {QStringLiteral("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")});
    } else {
        QVERIFY(FixtureGenerator::makeDatabase(path, 400).isEmpty());
        // Keep the header and schema page, scramble the pages that hold rows.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.size() > 8 * 4096);
        file.seek(3 * 4096);
        file.write(QByteArray(4 * 4096, '\xA5'));
    }
    const QByteArray hashBefore = fileHash(path);
    const auto opened = SqlDirectoryStore::open(path);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().kind, StoreError::Kind::NotDirectory);
    QVERIFY2(opened.error().message.contains(expected), qPrintable(opened.error().message));
    QCOMPARE(fileHash(path), hashBefore);
}

void TestSqliteDirectoryEngine::refusesANewerSchema()
{
    const QString path = freshPath();
    {
        auto opened = SqlDirectoryStore::open(path);
        QVERIFY(opened.ok());
    }
    execRaw(path, {QStringLiteral("PRAGMA user_version = %1").arg(SchemaMigrator::latestVersion() + 1)});
    const QByteArray hashBefore = fileHash(path);
    const auto opened = SqlDirectoryStore::open(path);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().kind, StoreError::Kind::TooNew);
    QVERIFY(opened.error().message.contains(QStringLiteral("newer")));
    QCOMPARE(fileHash(path), hashBefore);
}

void TestSqliteDirectoryEngine::partialReadsAreErrors()
{
    const QString path = freshPath();
    QVERIFY(FixtureGenerator::makeDatabase(path, 400).isEmpty());
    QVERIFY(SqlDirectoryStore::open(path).ok()); // migrated and checked while intact
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        file.seek(6 * 4096);
        file.write(QByteArray(4 * 4096, '\xA5'));
    }
    auto opened = SqlDirectoryStore::open(path);
    QVERIFY(opened.ok());
    const StoreResult<QList<Row>> rows = opened.value()->allRows();
    QVERIFY2(!rows.ok(), "a damaged table must not read as a shorter one");
    int seen = 0;
    QVERIFY(opened.value()->scanSummaryViews([&seen](const RowSummaryView &) { ++seen; }).isError());
}

QTEST_GUILESS_MAIN(TestSqliteDirectoryEngine)
#include "tst_sqlitedirectoryengine.moc"
