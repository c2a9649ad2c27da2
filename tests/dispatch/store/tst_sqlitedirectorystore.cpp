#include "dispatch/core/isotime.h"
#include "dispatch/core/steppingclock.h"
#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/row/rowschema.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/schemamigrator.h"
#include "dispatch/store/sqlitedirectorystore.h"
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

Row sampleRow(const QString &key)
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = QStringLiteral("echo");
    // Compliant (SPEC §8), since the store gates creates; these tests are about other things.
    row.content = QStringLiteral("# WHAT: echo\n# WHEN_TO_USE: tests.\n# ARGS: $1=text\n# EX: [%1]hi[/%1]\n"
                                 "# OUTPUT: the text\n[\"$1\"]")
                      .arg(key);
    row.category = QStringLiteral("tools");
    return row;
}

} // namespace

class TestSqliteDirectoryStore : public QObject
{
    Q_OBJECT

private slots:
    void createsANewDirectoryWithTheFullSchema();
    void usesWriteAheadLogging();
    void migratesAProductionFileInPlace();
    void migratesAnOldSixColumnFile();
    void refusesFilesThatAreNotDirectories_data();
    void refusesFilesThatAreNotDirectories();
    void refusesANewerSchema();
    void createGetReplaceDelete();
    void createStampsTimestamps();
    void createRefusesBadRows_data();
    void createRefusesBadRows();
    void patchHonoursTheAllowList_data();
    void patchHonoursTheAllowList();
    void patchOfMissingRowIsNotFound();
    void staleWritesAreConflicts();
    void replaceJudgesOnlyWhatItChanges();
    void partialReadsAreErrors();
    void applyIsAllOrNothing();
    void restoreNamesOnlyAVersionOfItsOwnRow_data();
    void restoreNamesOnlyAVersionOfItsOwnRow();
    void importRowsIsAllOrNothing();
    void contentSearchIsCaseInsensitiveAndEscaped();

private:
    QTemporaryDir m_dir;
    int m_counter = 0;
    QString freshPath() { return m_dir.filePath(QStringLiteral("d%1.db").arg(++m_counter)); }
};

void TestSqliteDirectoryStore::createsANewDirectoryWithTheFullSchema()
{
    const QString path = freshPath();
    auto opened = SqliteDirectoryStore::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    const QSqlRecord record = opened.value()->database().record(QStringLiteral("directory"));
    for (const QString &column : RowSchema::columns())
        QVERIFY2(record.contains(column), qPrintable(column));
    QCOMPARE(SchemaMigrator(opened.value()->database()).currentVersion(), SchemaMigrator::latestVersion());
}

void TestSqliteDirectoryStore::usesWriteAheadLogging()
{
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    QSqlQuery query(opened.value()->database());
    QVERIFY(query.exec(QStringLiteral("PRAGMA journal_mode")) && query.next());
    QCOMPARE(query.value(0).toString(), QStringLiteral("wal"));
}

void TestSqliteDirectoryStore::migratesAProductionFileInPlace()
{
    const QString path = freshPath();
    const QString error = FixtureGenerator::makeDatabase(path, 891);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QList<QVariantList> before = readTable(path, RowSchema::columns());
    QCOMPARE(before.size(), 891);

    auto opened = SqliteDirectoryStore::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    QCOMPARE(SchemaMigrator(opened.value()->database()).currentVersion(), SchemaMigrator::latestVersion());
    opened = StoreError();
    QCOMPARE(readTable(path, RowSchema::columns()), before);
}

void TestSqliteDirectoryStore::migratesAnOldSixColumnFile()
{
    const QString path = freshPath();
    execRaw(path,
            {QStringLiteral("CREATE TABLE directory (key TEXT PRIMARY KEY, type TEXT NOT NULL, target TEXT, "
                            "auth TEXT, content TEXT, updated_at TEXT NOT NULL)"),
             QStringLiteral("INSERT INTO directory VALUES ('NOW','fn','now',NULL,'# WHAT: "
                            "time','2026-01-01T00:00:00.000Z')"),
             QStringLiteral(
                 "INSERT INTO directory VALUES ('ECHO','fn','echo','','x','2026-01-02T00:00:00.000Z')")});
    auto opened = SqliteDirectoryStore::open(path);
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

void TestSqliteDirectoryStore::refusesFilesThatAreNotDirectories_data()
{
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<QString>("expected");
    QTest::addRow("text file") << QByteArray("text") << QStringLiteral("not a SQLite database");
    QTest::addRow("other tables") << QByteArray("other")
                                  << QStringLiteral("no 'directory' table (tables: notes)");
    QTest::addRow("corrupt") << QByteArray("corrupt") << QStringLiteral("corrupt");
}

void TestSqliteDirectoryStore::refusesFilesThatAreNotDirectories()
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
    const auto opened = SqliteDirectoryStore::open(path);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().kind, StoreError::Kind::NotDirectory);
    QVERIFY2(opened.error().message.contains(expected), qPrintable(opened.error().message));
    QCOMPARE(fileHash(path), hashBefore);
}

void TestSqliteDirectoryStore::refusesANewerSchema()
{
    const QString path = freshPath();
    {
        auto opened = SqliteDirectoryStore::open(path);
        QVERIFY(opened.ok());
    }
    execRaw(path, {QStringLiteral("PRAGMA user_version = %1").arg(SchemaMigrator::latestVersion() + 1)});
    const QByteArray hashBefore = fileHash(path);
    const auto opened = SqliteDirectoryStore::open(path);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().kind, StoreError::Kind::TooNew);
    QVERIFY(opened.error().message.contains(QStringLiteral("newer")));
    QCOMPARE(fileHash(path), hashBefore);
}

void TestSqliteDirectoryStore::createGetReplaceDelete()
{
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    DirectoryStore &store = *opened.value();

    QVERIFY(store.create(sampleRow(QStringLiteral("ECHO_ONE"))).ok());
    const StoreResult<WriteOutcome> again = store.create(sampleRow(QStringLiteral("ECHO_ONE")));
    QCOMPARE(again.error().kind, StoreError::Kind::AlreadyExists);

    Row changed = store.row(QStringLiteral("ECHO_ONE")).value();
    changed.target = QStringLiteral("upper");
    changed.seq = 7;
    QVERIFY(store.replace(changed).ok());
    const Row read = store.row(QStringLiteral("ECHO_ONE")).value();
    QCOMPARE(read.target, QStringLiteral("upper"));
    QCOMPARE(read.seq, std::optional<qint64>(7));

    QCOMPARE(store.replace(sampleRow(QStringLiteral("MISSING_ROW"))).error().kind,
             StoreError::Kind::NotFound);
    QVERIFY(!store.remove(QStringLiteral("ECHO_ONE")).isError());
    QCOMPARE(store.row(QStringLiteral("ECHO_ONE")).error().kind, StoreError::Kind::NotFound);
    QCOMPARE(store.remove(QStringLiteral("ECHO_ONE")).kind, StoreError::Kind::NotFound);
}

void TestSqliteDirectoryStore::createStampsTimestamps()
{
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    const auto clock = std::make_shared<SteppingClock>();
    opened.value()->setClock(clock);
    const StoreResult<WriteOutcome> created = opened.value()->create(sampleRow(QStringLiteral("STAMPED")));
    QVERIFY(created.ok());
    static const QRegularExpression iso(QStringLiteral(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$)"));
    QVERIFY2(iso.match(created.value().updatedAt).hasMatch(), qPrintable(created.value().updatedAt));
    const Row row = opened.value()->row(QStringLiteral("STAMPED")).value();
    QCOMPARE(row.createdAt, row.updatedAt);
    QCOMPARE(row.updatedAt, IsoTime::nowUtc(*clock));

    clock->advance(3);
    const StoreResult<WriteOutcome> patched = opened.value()->patch(
        QStringLiteral("STAMPED"), QJsonObject{{QStringLiteral("category"), QStringLiteral("x")}});
    QVERIFY(patched.ok());
    const Row after = opened.value()->row(QStringLiteral("STAMPED")).value();
    QVERIFY(after.updatedAt > row.updatedAt);
    QCOMPARE(after.updatedAt, IsoTime::nowUtc(*clock));
    QCOMPARE(after.createdAt, row.createdAt);
    // The write's events carry the same clock's time as the row.
    const StoreResult<QList<LogEvent>> events =
        EventLog(opened.value()->database()).events(QStringLiteral("STAMPED"));
    QVERIFY(events.ok());
    QCOMPARE(events.value().size(), 2);
    QCOMPARE(events.value().at(0).at, after.updatedAt); // newest first
    QCOMPARE(events.value().at(1).at, row.updatedAt);
}

void TestSqliteDirectoryStore::createRefusesBadRows_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::addRow("lowercase key") << "key"
                                   << "echo"
                                   << "must match";
    QTest::addRow("one-letter key") << "key"
                                    << "E"
                                    << "must match";
    QTest::addRow("key with dash") << "key"
                                   << "ECHO-1"
                                   << "must match";
    QTest::addRow("fifth type") << "type"
                                << "lambda"
                                << "not one of fn, http, agent, flow";
    QTest::addRow("schema not json") << "input_schema"
                                     << "{not json"
                                     << "input_schema is not JSON: line 1, column";
    QTest::addRow("schema not object") << "input_schema"
                                       << "[1]"
                                       << "JSON Schema object";
    QTest::addRow("examples not array") << "examples"
                                        << "{\"a\":1}"
                                        << "JSON array";
    QTest::addRow("examples not strings") << "examples"
                                          << "[\"a\", 2]"
                                          << "examples[1] must be a string";
}

void TestSqliteDirectoryStore::createRefusesBadRows()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, message);
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    Row row = sampleRow(QStringLiteral("GOOD_KEY"));
    QVERIFY(row.setValue(field, value));
    const StoreResult<WriteOutcome> created = opened.value()->create(row);
    QVERIFY(!created.ok());
    QCOMPARE(created.error().kind, StoreError::Kind::Invalid);
    QVERIFY2(created.error().message.contains(message), qPrintable(created.error().message));
    QVERIFY(opened.value()->allRows().value().isEmpty());
}

void TestSqliteDirectoryStore::patchHonoursTheAllowList_data()
{
    QTest::addColumn<QByteArray>("fields");
    QTest::addColumn<QString>("error");
    QTest::addColumn<QString>("checkField");
    QTest::addColumn<QVariant>("expected");
    QTest::addRow("runner only") << QByteArray(R"({"runner":"edge"})") << "no recognized fields"
                                 << "runner" << QVariant();
    QTest::addRow("sensitive only") << QByteArray(R"({"sensitive":1})") << "no recognized fields"
                                    << "sensitive" << QVariant(qint64(0));
    QTest::addRow("nothing") << QByteArray("{}") << "no recognized fields"
                             << "" << QVariant();
    QTest::addRow("content") << QByteArray(
        R"({"content":"# WHAT: new\n# WHEN_TO_USE: t\n# ARGS: none\n# EX: [PATCHED][/PATCHED]\n# OUTPUT: x"})")
                             << ""
                             << "content"
                             << QVariant(QStringLiteral("# WHAT: new\n# WHEN_TO_USE: t\n# ARGS: none\n# EX: "
                                                        "[PATCHED][/PATCHED]\n# OUTPUT: x"));
    QTest::addRow("runner ignored beside content") << QByteArray(R"({"runner":"edge","category":"c"})") << ""
                                                   << "runner" << QVariant();
    QTest::addRow("enabled 0") << QByteArray(R"({"enabled":0})") << ""
                               << "enabled" << QVariant(qint64(0));
    QTest::addRow("enabled as bool") << QByteArray(R"({"enabled":false})") << "field 'enabled' must be 0 or 1"
                                     << "enabled" << QVariant(qint64(1));
    QTest::addRow("bad field beside a good one") << QByteArray(R"({"category":"c","planner_rank":1.5})")
                                                 << "field 'planner_rank' must be a whole number"
                                                 << "category" << QVariant(QStringLiteral("tools"));
    QTest::addRow("seq null") << QByteArray(R"({"seq":null})") << ""
                              << "seq" << QVariant();
    QTest::addRow("bad type") << QByteArray(R"({"type":"lambda"})") << "not one of"
                              << "type" << QVariant(QStringLiteral("fn"));
    QTest::addRow("bad schema") << QByteArray(R"({"input_schema":"{"})") << "input_schema is not JSON"
                                << "input_schema" << QVariant();
    QTest::addRow("seq text") << QByteArray(R"({"seq":"x"})") << "field 'seq' must be null or a whole number"
                              << "seq" << QVariant();
}

void TestSqliteDirectoryStore::patchHonoursTheAllowList()
{
    QFETCH(QByteArray, fields);
    QFETCH(QString, error);
    QFETCH(QString, checkField);
    QFETCH(QVariant, expected);
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    QVERIFY(opened.value()->create(sampleRow(QStringLiteral("PATCHED"))).ok());
    const Row before = opened.value()->row(QStringLiteral("PATCHED")).value();
    const StoreResult<WriteOutcome> result =
        opened.value()->patch(QStringLiteral("PATCHED"), QJsonDocument::fromJson(fields).object());
    const Row after = opened.value()->row(QStringLiteral("PATCHED")).value();
    if (!error.isEmpty()) {
        QVERIFY(!result.ok());
        QVERIFY2(result.error().message.contains(error), qPrintable(result.error().message));
        QCOMPARE(after, before);
    } else {
        QVERIFY2(result.ok(), qPrintable(result.error().message));
    }
    if (!checkField.isEmpty())
        QCOMPARE(after.value(checkField), expected);
}

void TestSqliteDirectoryStore::patchOfMissingRowIsNotFound()
{
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    const auto result = opened.value()->patch(QStringLiteral("NOPE"),
                                              QJsonObject{{QStringLiteral("content"), QStringLiteral("x")}});
    QCOMPARE(result.error().kind, StoreError::Kind::NotFound);
}

void TestSqliteDirectoryStore::staleWritesAreConflicts()
{
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    const auto clock = std::make_shared<SteppingClock>();
    opened.value()->setClock(clock);
    DirectoryStore &store = *opened.value();
    QVERIFY(store.create(sampleRow(QStringLiteral("SHARED_ROW"))).ok());
    const Row read = store.row(QStringLiteral("SHARED_ROW")).value();
    clock->advance();
    QVERIFY(store
                .patch(QStringLiteral("SHARED_ROW"),
                       QJsonObject{{QStringLiteral("target"), QStringLiteral("upper")}})
                .ok());

    Row mine = read;
    mine.category = QStringLiteral("mine");
    const StoreResult<WriteOutcome> replaced = store.replace(mine, read.updatedAt);
    QCOMPARE(replaced.error().kind, StoreError::Kind::Conflict);
    QVERIFY(replaced.error().message.contains(QStringLiteral("changed since it was read")));
    QCOMPARE(store.remove(QStringLiteral("SHARED_ROW"), read.updatedAt).kind, StoreError::Kind::Conflict);
    QCOMPARE(store.row(QStringLiteral("SHARED_ROW")).value().target, QStringLiteral("upper"));

    const QString current = store.row(QStringLiteral("SHARED_ROW")).value().updatedAt;
    QVERIFY(store.replace(mine, current).ok());
    QVERIFY(
        !store.remove(QStringLiteral("SHARED_ROW"), store.row(QStringLiteral("SHARED_ROW")).value().updatedAt)
             .isError());
}

void TestSqliteDirectoryStore::replaceJudgesOnlyWhatItChanges()
{
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    Row legacy = sampleRow(QStringLiteral("legacy_row"));
    legacy.examples = QStringLiteral("oops not json");
    legacy.updatedAt = QStringLiteral("2026-01-01T00:00:00.000Z");
    QVERIFY(!opened.value()->importRows({legacy}).isError());

    Row disabled = opened.value()->row(QStringLiteral("legacy_row")).value();
    disabled.enabled = false;
    // The editor's Replace (a ChangeSet), not a strict PUT, is what keeps old rows editable.
    QVERIFY2(!opened.value()->apply({RowChange::replace(disabled)}).isError(),
             "an unrelated edit of an old row is allowed");
    Row broken = disabled;
    broken.inputSchema = QStringLiteral("{");
    const StoreError refused = opened.value()->apply({RowChange::replace(broken)});
    QCOMPARE(refused.kind, StoreError::Kind::Invalid);
    QVERIFY(refused.message.startsWith(QStringLiteral("legacy_row: H050 input_schema_json (input_schema)")));
}

void TestSqliteDirectoryStore::partialReadsAreErrors()
{
    const QString path = freshPath();
    QVERIFY(FixtureGenerator::makeDatabase(path, 400).isEmpty());
    QVERIFY(SqliteDirectoryStore::open(path).ok()); // migrated and checked while intact
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        file.seek(6 * 4096);
        file.write(QByteArray(4 * 4096, '\xA5'));
    }
    auto opened = SqliteDirectoryStore::open(path);
    QVERIFY(opened.ok());
    const StoreResult<QList<Row>> rows = opened.value()->allRows();
    QVERIFY2(!rows.ok(), "a damaged table must not read as a shorter one");
    int seen = 0;
    QVERIFY(opened.value()->scanSummaryViews([&seen](const RowSummaryView &) { ++seen; }).isError());
}

void TestSqliteDirectoryStore::applyIsAllOrNothing()
{
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    DirectoryStore &store = *opened.value();
    QVERIFY(store.create(sampleRow(QStringLiteral("KEEP_ME"))).ok());
    const QList<Row> before = store.allRows().value();

    Row bad = sampleRow(QStringLiteral("BAD_ONE"));
    bad.type = QStringLiteral("lambda");
    const StoreError error =
        store.apply({RowChange::remove(QStringLiteral("KEEP_ME")),
                     RowChange::create(sampleRow(QStringLiteral("NEW_ONE"))), RowChange::create(bad)});
    QVERIFY(error.isError());
    QCOMPARE(store.allRows().value(), before);

    QVERIFY(!store
                 .apply({RowChange::remove(QStringLiteral("KEEP_ME")),
                         RowChange::create(sampleRow(QStringLiteral("NEW_ONE")))})
                 .isError());
    QCOMPARE(store.allRows().value().size(), 1);
    QCOMPARE(store.allRows().value().first().key, QStringLiteral("NEW_ONE"));
}

void TestSqliteDirectoryStore::restoreNamesOnlyAVersionOfItsOwnRow_data()
{
    QTest::addColumn<QString>("version"); // which event's seq the restore names
    QTest::addColumn<QString>("error"); // empty: written, logged as a restore

    QTest::addRow("its own first version") << QStringLiteral("own") << QString();
    QTest::addRow("another row's version")
        << QStringLiteral("other") << QStringLiteral("ROW_A has no saved version #%1 to restore");
    QTest::addRow("no such version") << QStringLiteral("none")
                                     << QStringLiteral("ROW_A has no saved version #%1 to restore");
    QTest::addRow("a negative one") << QStringLiteral("negative")
                                    << QStringLiteral("ROW_A has no saved version #%1 to restore");
    QTest::addRow("other values under its seq")
        << QStringLiteral("own, altered") << QStringLiteral("ROW_A: the row written is not version #%1");
}

// A restore is a replace logged as `restore` with the seq it put back; a seq that is no
// event of that row is refused, and nothing is written.
void TestSqliteDirectoryStore::restoreNamesOnlyAVersionOfItsOwnRow()
{
    QFETCH(QString, version);
    QFETCH(QString, error);
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    SqliteDirectoryStore &store = *opened.value();
    QVERIFY(store.create(sampleRow(QStringLiteral("ROW_A"))).ok());
    QVERIFY(store.create(sampleRow(QStringLiteral("ROW_B"))).ok());
    QVERIFY(
        store.patch(QStringLiteral("ROW_A"), {{QStringLiteral("category"), QStringLiteral("later")}}).ok());
    const DirectoryHistory history(opened.value());
    const QList<LogEvent> events = history.events().value(); // newest first
    const qint64 seq = version.startsWith(QLatin1String("own")) ? events.last().seq
                       : version == QLatin1String("other")      ? events.at(1).seq
                       : version == QLatin1String("none")       ? events.first().seq + 100
                                                                : -3;
    const Row current = store.row(QStringLiteral("ROW_A")).value();
    Row restored = current;
    restored.category = sampleRow(QStringLiteral("ROW_A")).category;
    if (version == QLatin1String("own, altered"))
        restored.target = QStringLiteral("upper");
    const StoreError written = store.apply({RowChange::restore(restored, current.updatedAt, seq)});
    if (!error.isEmpty()) {
        QCOMPARE(written.message, error.arg(seq));
        QCOMPARE(store.row(QStringLiteral("ROW_A")).value(), current);
        QCOMPARE(history.events().value().size(), events.size());
        return;
    }
    QVERIFY2(!written.isError(), qPrintable(written.message));
    const LogEvent logged = history.events(QStringLiteral("ROW_A")).value().first();
    QCOMPARE(logged.action, QStringLiteral("restore"));
    QCOMPARE(logged.detail.value(QStringLiteral("restores_seq")).toInteger(), seq);
    QCOMPARE(store.row(QStringLiteral("ROW_A")).value().category, restored.category);
    QVERIFY(history.auditTrustingListedKeys().value().intact());
}

void TestSqliteDirectoryStore::importRowsIsAllOrNothing()
{
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    DirectoryStore &store = *opened.value();
    Row kept = sampleRow(QStringLiteral("OLD_ROW"));
    kept.updatedAt = QStringLiteral("2026-01-01T00:00:00.000Z");
    QVERIFY(!store.importRows({kept}).isError());
    QCOMPARE(store.row(QStringLiteral("OLD_ROW")).value().updatedAt, kept.updatedAt);

    const QList<Row> before = store.allRows().value();
    const StoreError duplicate =
        store.importRows({sampleRow(QStringLiteral("A_ROW")), sampleRow(QStringLiteral("OLD_ROW"))});
    QVERIFY(duplicate.message.contains(QStringLiteral("duplicate key 'OLD_ROW'")));
    QCOMPARE(store.allRows().value(), before);
}

void TestSqliteDirectoryStore::contentSearchIsCaseInsensitiveAndEscaped()
{
    auto opened = SqliteDirectoryStore::open(freshPath());
    QVERIFY(opened.ok());
    Row a = sampleRow(QStringLiteral("ROW_A"));
    a.content = QStringLiteral("Weather in 100% of cases");
    Row b = sampleRow(QStringLiteral("ROW_B"));
    b.content = QStringLiteral("weather_station");
    QVERIFY(!opened.value()->importRows({a, b}).isError());
    QCOMPARE(opened.value()->keysWithContent(QStringLiteral("WEATHER")).value().size(), 2);
    QCOMPARE(opened.value()->keysWithContent(QStringLiteral("100%")).value(),
             QStringList{QStringLiteral("ROW_A")});
    QCOMPARE(opened.value()->keysWithContent(QStringLiteral("r_s")).value(),
             QStringList{QStringLiteral("ROW_B")});
}

QTEST_GUILESS_MAIN(TestSqliteDirectoryStore)
#include "tst_sqlitedirectorystore.moc"
