#include "dispatch/core/isotime.h"
#include "dispatch/core/steppingclock.h"
#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/row/rowschema.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/schemamigrator.h"
#include "dispatch/store/sqldialect.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/samplerow.h"
#include "tests/support/storebackend.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>

// The store's semantics (SPEC §8: rows, stamps, the gate, conflicts, all-or-nothing writes,
// restores, imports, search, the event log) on every engine: each case runs on a SQLite file
// and on a database of a real PostgreSQL server.
class TestSqlDirectoryStore : public QObject
{
    Q_OBJECT

public:
    explicit TestSqlDirectoryStore(StoreBackend::Kind kind) : m_backend(kind) {}

private slots:
    void initTestCase();
    void createsANewDirectoryWithTheFullSchema();
    void createGetReplaceDelete();
    void createStampsTimestamps();
    void createRefusesBadRows_data();
    void createRefusesBadRows();
    void patchHonoursTheAllowList_data();
    void patchHonoursTheAllowList();
    void patchOfMissingRowIsNotFound();
    void staleWritesAreConflicts();
    void replaceJudgesOnlyWhatItChanges();
    void applyIsAllOrNothing();
    void restoreNamesOnlyAVersionOfItsOwnRow_data();
    void restoreNamesOnlyAVersionOfItsOwnRow();
    void importRowsIsAllOrNothing();
    void contentSearchIsCaseInsensitiveAndEscaped();
    void refusesANewerSchema();
    void updatedAtChangesWithEveryWrite();
    void historyIsAppendOnly_data();
    void historyIsAppendOnly();
    void twoProcessesKeepOneEventChain();
    void conflictsHoldAcrossInstances();
    void changeFeedTellsOtherInstancesWrites();

private:
    StoreBackend m_backend;
};

void TestSqlDirectoryStore::initTestCase()
{
    qInfo("engine: %s", qPrintable(m_backend.name()));
    QVERIFY2(m_backend.start(), "the PostgreSQL server of this run did not start (see the warning above)");
}

void TestSqlDirectoryStore::createsANewDirectoryWithTheFullSchema()
{
    const QString path = m_backend.freshLocation();
    auto opened = SqlDirectoryStore::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    const QSqlRecord record = opened.value()->database().record(QStringLiteral("directory"));
    for (const QString &column : RowSchema::columns())
        QVERIFY2(record.contains(column), qPrintable(column));
    const QSqlDatabase db = opened.value()->database();
    QCOMPARE(SchemaMigrator(db).currentVersion(), SchemaMigrator::latestVersion(SqlDialect::of(db)));
}

void TestSqlDirectoryStore::createGetReplaceDelete()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
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

void TestSqlDirectoryStore::createStampsTimestamps()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
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

void TestSqlDirectoryStore::createRefusesBadRows_data()
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

void TestSqlDirectoryStore::createRefusesBadRows()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, message);
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(opened.ok());
    Row row = sampleRow(QStringLiteral("GOOD_KEY"));
    QVERIFY(row.setValue(field, value));
    const StoreResult<WriteOutcome> created = opened.value()->create(row);
    QVERIFY(!created.ok());
    QCOMPARE(created.error().kind, StoreError::Kind::Invalid);
    QVERIFY2(created.error().message.contains(message), qPrintable(created.error().message));
    QVERIFY(opened.value()->allRows().value().isEmpty());
}

void TestSqlDirectoryStore::patchHonoursTheAllowList_data()
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

void TestSqlDirectoryStore::patchHonoursTheAllowList()
{
    QFETCH(QByteArray, fields);
    QFETCH(QString, error);
    QFETCH(QString, checkField);
    QFETCH(QVariant, expected);
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
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

void TestSqlDirectoryStore::patchOfMissingRowIsNotFound()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(opened.ok());
    const auto result = opened.value()->patch(QStringLiteral("NOPE"),
                                              QJsonObject{{QStringLiteral("content"), QStringLiteral("x")}});
    QCOMPARE(result.error().kind, StoreError::Kind::NotFound);
}

void TestSqlDirectoryStore::staleWritesAreConflicts()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
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

void TestSqlDirectoryStore::replaceJudgesOnlyWhatItChanges()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
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

void TestSqlDirectoryStore::applyIsAllOrNothing()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
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

void TestSqlDirectoryStore::restoreNamesOnlyAVersionOfItsOwnRow_data()
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
void TestSqlDirectoryStore::restoreNamesOnlyAVersionOfItsOwnRow()
{
    QFETCH(QString, version);
    QFETCH(QString, error);
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(opened.ok());
    SqlDirectoryStore &store = *opened.value();
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

void TestSqlDirectoryStore::importRowsIsAllOrNothing()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
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

void TestSqlDirectoryStore::contentSearchIsCaseInsensitiveAndEscaped()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
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

void TestSqlDirectoryStore::refusesANewerSchema()
{
    const QString location = m_backend.freshLocation();
    int newer = 0;
    {
        auto opened = SqlDirectoryStore::open(location);
        QVERIFY2(opened.ok(), qPrintable(opened.error().message));
        const QSqlDatabase db = opened.value()->database();
        newer = SchemaMigrator::latestVersion(SqlDialect::of(db)) + 1;
        QSqlQuery query(db);
        QVERIFY2(query.exec(SqlDialect::of(db).setSchemaVersion.arg(newer)),
                 qPrintable(query.lastError().text()));
    }
    const auto opened = SqlDirectoryStore::open(location);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().kind, StoreError::Kind::TooNew);
    QVERIFY2(opened.error().message.contains(QString::number(newer)), qPrintable(opened.error().message));
}

void TestSqlDirectoryStore::updatedAtChangesWithEveryWrite()
{
    // Two writes in one millisecond (a clock that does not move): If-Match must still tell
    // them apart, so the second stamp is a millisecond after the first.
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(opened.ok());
    SqlDirectoryStore &store = *opened.value();
    auto clock = std::make_shared<SteppingClock>();
    store.setClock(clock);
    const auto created = store.create(sampleRow(QStringLiteral("AB")));
    QVERIFY(created.ok());
    Row row = store.row(QStringLiteral("AB")).value();
    row.category = QStringLiteral("first");
    const auto replaced = store.replace(row, created.value().updatedAt);
    QVERIFY2(replaced.ok(), qPrintable(replaced.error().message));
    QVERIFY(replaced.value().updatedAt > created.value().updatedAt);
    const auto patched =
        store.patch(QStringLiteral("AB"), {{QStringLiteral("category"), QStringLiteral("x")}});
    QVERIFY(patched.ok());
    QVERIFY(patched.value().updatedAt > replaced.value().updatedAt);
    // A stale If-Match from before the patch is refused, though the clock never moved.
    row.category = QStringLiteral("second");
    QCOMPARE(store.replace(row, replaced.value().updatedAt).error().kind, StoreError::Kind::Conflict);
}

void TestSqlDirectoryStore::historyIsAppendOnly_data()
{
    QTest::addColumn<QString>("statement");
    QTest::newRow("update an event") << QStringLiteral("UPDATE events SET actor = 'x'");
    QTest::newRow("delete an event") << QStringLiteral("DELETE FROM events");
    if (m_backend.kind() == StoreBackend::Kind::Postgres) {
        // Row triggers do not see TRUNCATE; statement triggers do.
        QTest::newRow("truncate the events") << QStringLiteral("TRUNCATE events");
        QTest::newRow("truncate the receipts") << QStringLiteral("TRUNCATE receipts");
        QTest::newRow("truncate the receipt chains") << QStringLiteral("TRUNCATE receipt_chain_links");
    }
}

void TestSqlDirectoryStore::historyIsAppendOnly()
{
    QFETCH(QString, statement);
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(opened.ok());
    SqlDirectoryStore &store = *opened.value();
    QVERIFY(store.create(sampleRow(QStringLiteral("AB"))).ok());
    QSqlQuery query(store.database());
    QVERIFY(!query.exec(statement));
    QVERIFY2(query.lastError().text().contains(QStringLiteral("append-only")),
             qPrintable(query.lastError().text()));
    EventLog log(store.database());
    QCOMPARE(log.events().value().size(), 1);
}

void TestSqlDirectoryStore::twoProcessesKeepOneEventChain()
{
    // Two stores on one directory, as two processes would be, writing at once from two
    // threads: the event log stays one chain with every write in it.
    constexpr int perWriter = 40;
    const QString location = m_backend.freshLocation();
    QVERIFY(SqlDirectoryStore::open(location).ok());
    std::atomic_int failures{0};
    QString firstFailure;
    auto writer = [&](const QString &prefix) {
        auto opened = SqlDirectoryStore::open(location);
        if (!opened.ok()) {
            ++failures;
            return;
        }
        for (int i = 0; i < perWriter; ++i) {
            const auto written = opened.value()->create(sampleRow(prefix + QString::number(i)));
            if (!written.ok() && failures++ == 0)
                firstFailure = written.error().message;
        }
    };
    std::unique_ptr<QThread> one(QThread::create(writer, QStringLiteral("ONE_")));
    std::unique_ptr<QThread> two(QThread::create(writer, QStringLiteral("TWO_")));
    one->start();
    two->start();
    QVERIFY(one->wait(120000));
    QVERIFY(two->wait(120000));
    QVERIFY2(failures == 0, qPrintable(firstFailure));
    auto opened = SqlDirectoryStore::open(location);
    QVERIFY(opened.ok());
    EventLog log(opened.value()->database());
    const auto verified = log.verify();
    QVERIFY(verified.ok());
    QVERIFY2(verified.value().intact, qPrintable(verified.value().problem));
    QCOMPARE(verified.value().checked, qint64(2 * perWriter));
    QCOMPARE(opened.value()->allRows().value().size(), 2 * perWriter);
}

void TestSqlDirectoryStore::conflictsHoldAcrossInstances()
{
    const QString location = m_backend.freshLocation();
    auto first = SqlDirectoryStore::open(location);
    auto second = SqlDirectoryStore::open(location);
    QVERIFY(first.ok() && second.ok());
    const auto created = first.value()->create(sampleRow(QStringLiteral("AB")));
    QVERIFY(created.ok());
    Row theirs = second.value()->row(QStringLiteral("AB")).value();
    theirs.category = QStringLiteral("theirs");
    QVERIFY(second.value()->replace(theirs, created.value().updatedAt).ok());
    Row mine = first.value()->row(QStringLiteral("AB")).value();
    mine.category = QStringLiteral("mine");
    const auto refused = first.value()->replace(mine, created.value().updatedAt);
    QCOMPARE(refused.error().kind, StoreError::Kind::Conflict);
    QCOMPARE(first.value()->row(QStringLiteral("AB")).value().category, QStringLiteral("theirs"));
    QCOMPARE(first.value()->remove(QStringLiteral("AB"), created.value().updatedAt).kind,
             StoreError::Kind::Conflict);
    // A patch naming the version it read is judged inside its write, as the servers'
    // If-Match PATCH is: a stale one changes nothing, the current one lands.
    const QJsonObject rank{{QStringLiteral("planner_rank"), 7}};
    const auto stalePatch = first.value()->patch(QStringLiteral("AB"), rank, created.value().updatedAt);
    QCOMPARE(stalePatch.error().kind, StoreError::Kind::Conflict);
    QVERIFY(stalePatch.error().message.contains(QStringLiteral("changed since it was read")));
    QCOMPARE(first.value()->row(QStringLiteral("AB")).value().plannerRank, 100);
    const QString current = second.value()->row(QStringLiteral("AB")).value().updatedAt;
    QVERIFY(first.value()->patch(QStringLiteral("AB"), rank, current).ok());
    QCOMPARE(second.value()->row(QStringLiteral("AB")).value().plannerRank, 7);
}

void TestSqlDirectoryStore::changeFeedTellsOtherInstancesWrites()
{
    const QString location = m_backend.freshLocation();
    auto reader = SqlDirectoryStore::open(location);
    auto writer = SqlDirectoryStore::open(location);
    QVERIFY(reader.ok() && writer.ok());
    QVERIFY(writer.value()->create(sampleRow(QStringLiteral("GONE"))).ok());
    const auto baseline = reader.value()->changesSince({});
    QVERIFY(baseline.ok());
    QVERIFY(baseline.value().unchanged);
    const auto quiet = reader.value()->changesSince(baseline.value().cursor);
    QVERIFY(quiet.ok());
    QVERIFY(quiet.value().unchanged);

    QVERIFY(writer.value()->create(sampleRow(QStringLiteral("NEW"))).ok());
    QVERIFY(!writer.value()->remove(QStringLiteral("GONE")).isError());
    const auto delta = reader.value()->changesSince(baseline.value().cursor);
    QVERIFY2(delta.ok(), qPrintable(delta.error().message));
    QVERIFY(!delta.value().unchanged);
    QVERIFY(!delta.value().complete);
    QCOMPARE(delta.value().changed.size(), 1);
    QCOMPARE(delta.value().changed.first().key, QStringLiteral("NEW"));
    QCOMPARE(delta.value().removed, QStringList{QStringLiteral("GONE")});

    // A write with plain SQL, behind the log: the next poll cannot tell a delta.
    QSqlQuery outside(writer.value()->database());
    QVERIFY2(outside.exec(QStringLiteral("UPDATE directory SET target = 'sql' WHERE key = 'NEW'")),
             qPrintable(outside.lastError().text()));
    const auto complete = reader.value()->changesSince(delta.value().cursor);
    QVERIFY2(complete.ok(), qPrintable(complete.error().message));
    QVERIFY(complete.value().complete);
    QCOMPARE(complete.value().changed.size(), 1);
    QCOMPARE(complete.value().changed.first().target, QStringLiteral("sql"));
    // A garbled cursor is answered with everything, never an error.
    const auto garbled = reader.value()->changesSince(QByteArrayLiteral("pg1:9:zz"));
    QVERIFY(garbled.ok());
    QVERIFY(garbled.value().complete);
}

CAPDESK_TEST_ON_BOTH_BACKENDS(TestSqlDirectoryStore)
#include "tst_sqldirectorystore.moc"
