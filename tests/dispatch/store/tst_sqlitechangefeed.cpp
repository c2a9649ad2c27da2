#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/store/sqlitechangefeed.h"
#include "tests/support/processrun.h"
#include "tests/support/rawsql.h"
#include "tests/support/serveprocess.h"

#include <QJsonDocument>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <thread>

using namespace Qt::StringLiterals;

namespace {

Row sampleRow(const QString &key)
{
    Row row;
    row.key = key;
    row.type = u"fn"_s;
    row.target = u"echo"_s;
    // Compliant (SPEC §8), since the store gates creates.
    row.content = u"# WHAT: echo\n# WHEN_TO_USE: tests.\n# ARGS: $1=text\n# EX: [%1]hi[/%1]\n"
                  u"# OUTPUT: the text\n[\"$1\"]"_s.arg(key);
    row.category = u"tools"_s;
    return row;
}

QStringList keysOf(const QList<RowSummary> &summaries)
{
    QStringList keys;
    for (const RowSummary &summary : summaries)
        keys.append(summary.key);
    keys.sort();
    return keys;
}

QStringList sorted(QStringList keys)
{
    keys.sort();
    return keys;
}

const RowSummary *find(const QList<RowSummary> &summaries, const QString &key)
{
    const auto found = std::find_if(summaries.cbegin(), summaries.cend(),
                                    [&](const RowSummary &summary) { return summary.key == key; });
    return found == summaries.cend() ? nullptr : &*found;
}

// What happens to the directory between the baseline and the poll.
enum class Change {
    Nothing,
    Create,
    Replace,
    Patch,
    Delete,
    CreateThenDelete,
    ImportWithOldTimestamps,
    WriteInTheSameMillisecond,
    RawSqlUpdate,
    RawSqlInsert,
    RawSqlDelete,
    CommitWithoutARowChange,
    EventWithoutARowChange,
};

} // namespace

Q_DECLARE_METATYPE(Change)

// SqlDirectoryStore::changesSince(): deltas from the event log, complete listings
// where no delta can be told, and "unchanged" at the price of one PRAGMA.
class TestSqliteChangeFeed : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void reportsWhatChanged_data();
    void reportsWhatChanged();
    void baselineThenNoChangeIsUnchanged();
    void garbledCursorsAreCompleteListings_data();
    void garbledCursorsAreCompleteListings();
    void aCursorOfAnotherFileIsACompleteListing();
    void outsideWritesAreRecordedOnceForEveryReader();
    void ownWritesAreNotCountedAsOutside();
    void droppedTriggersMakeEveryChangeComplete();
    void aLargeDeltaIsAListing();
    void anotherProcessPutsARow();
    void answersOnAnyThread();
    void serverCursorsStandAtAnEvent();

private:
    void apply(Change change);
    QByteArray baseline();
    QString execRaw(const QStringList &statements) { return RawSql::exec(m_path, statements); }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    std::shared_ptr<SqlDirectoryStore> m_store;
};

void TestSqliteChangeFeed::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_path = m_dir->filePath(u"directory.db"_s);
    auto opened = SqlDirectoryStore::open(m_path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
    for (const char *key : {"ALPHA", "BRAVO"})
        QVERIFY(m_store->create(sampleRow(QLatin1String(key))).ok());
}

void TestSqliteChangeFeed::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

QByteArray TestSqliteChangeFeed::baseline()
{
    const StoreResult<DirectoryChanges> start = m_store->changesSince(QByteArray());
    if (!start.ok())
        qWarning("baseline: %s", qPrintable(start.error().message));
    return start.ok() ? start.value().cursor : QByteArray();
}

void TestSqliteChangeFeed::apply(Change change)
{
    auto ok = [](const auto &result) { return result.ok(); };
    switch (change) {
    case Change::Nothing:
        return;
    case Change::Create:
        QVERIFY(ok(m_store->create(sampleRow(u"CHARLIE"_s))));
        return;
    case Change::Replace: {
        Row row = m_store->row(u"ALPHA"_s).value();
        row.target = u"upper"_s;
        QVERIFY(ok(m_store->replace(row)));
        return;
    }
    case Change::Patch:
        QVERIFY(ok(m_store->patch(u"ALPHA"_s, {{u"category"_s, u"patched"_s}})));
        return;
    case Change::Delete:
        QVERIFY(!m_store->remove(u"BRAVO"_s).isError());
        return;
    case Change::CreateThenDelete:
        QVERIFY(ok(m_store->create(sampleRow(u"CHARLIE"_s))));
        QVERIFY(!m_store->remove(u"CHARLIE"_s).isError());
        return;
    case Change::ImportWithOldTimestamps: {
        Row old = sampleRow(u"DELTA"_s);
        old.updatedAt = u"2001-02-03T04:05:06.007Z"_s;
        QVERIFY(!m_store->importRows({old}).isError());
        return;
    }
    case Change::WriteInTheSameMillisecond: {
        // Stamped with the updated_at of the newest row the caller saw: a feed keyed on
        // updated_at (since=) would skip it.
        Row twin = sampleRow(u"ECHO"_s);
        twin.updatedAt = m_store->row(u"BRAVO"_s).value().updatedAt;
        QVERIFY(!m_store->importRows({twin}).isError());
        return;
    }
    case Change::RawSqlUpdate:
        QCOMPARE(execRaw({u"UPDATE directory SET target = 'upper' WHERE key = 'ALPHA'"_s}), QString());
        return;
    case Change::RawSqlInsert:
        QCOMPARE(execRaw({u"INSERT INTO directory (key, type, updated_at) VALUES ('FOXTROT', 'fn', 'x')"_s}),
                 QString());
        return;
    case Change::RawSqlDelete:
        QCOMPARE(execRaw({u"DELETE FROM directory WHERE key = 'BRAVO'"_s}), QString());
        return;
    case Change::CommitWithoutARowChange:
        // What a receipt's commit is to the feed: the file changed, the directory did not.
        QCOMPARE(
            execRaw(
                {u"INSERT INTO signing_keys (key_id, public_key_pem, created_at) VALUES ('k', 'pem', 't')"_s}),
            QString());
        return;
    case Change::EventWithoutARowChange: {
        DirectoryLedger ledger(m_store, DirectoryLedger::KeyPlacement::FileOnly);
        QVERIFY(!ledger.recordRefusal(u"ALPHA"_s, u"tok_1"_s, u"revoked"_s, u"token:tok_1"_s).isError());
        return;
    }
    }
}

void TestSqliteChangeFeed::reportsWhatChanged_data()
{
    QTest::addColumn<Change>("change");
    QTest::addColumn<QStringList>("changed"); // every row when complete
    QTest::addColumn<QStringList>("removed");
    QTest::addColumn<bool>("complete");

    const QStringList none;
    QTest::addRow("nothing") << Change::Nothing << none << none << false;
    QTest::addRow("create") << Change::Create << QStringList{u"CHARLIE"_s} << none << false;
    QTest::addRow("replace") << Change::Replace << QStringList{u"ALPHA"_s} << none << false;
    QTest::addRow("patch") << Change::Patch << QStringList{u"ALPHA"_s} << none << false;
    QTest::addRow("delete") << Change::Delete << none << QStringList{u"BRAVO"_s} << false;
    QTest::addRow("create, then delete")
        << Change::CreateThenDelete << none << QStringList{u"CHARLIE"_s} << false;
    QTest::addRow("import with old timestamps")
        << Change::ImportWithOldTimestamps << QStringList{u"DELTA"_s} << none << false;
    QTest::addRow("a write in the same millisecond")
        << Change::WriteInTheSameMillisecond << QStringList{u"ECHO"_s} << none << false;
    QTest::addRow("plain SQL update")
        << Change::RawSqlUpdate << QStringList{u"ALPHA"_s, u"BRAVO"_s} << none << true;
    QTest::addRow("plain SQL insert")
        << Change::RawSqlInsert << QStringList{u"ALPHA"_s, u"BRAVO"_s, u"FOXTROT"_s} << none << true;
    QTest::addRow("plain SQL delete") << Change::RawSqlDelete << QStringList{u"ALPHA"_s} << none << true;
    QTest::addRow("a commit that changes no row") << Change::CommitWithoutARowChange << none << none << false;
    QTest::addRow("an event that changes no row") << Change::EventWithoutARowChange << none << none << false;
}

void TestSqliteChangeFeed::reportsWhatChanged()
{
    QFETCH(Change, change);
    QFETCH(QStringList, changed);
    QFETCH(QStringList, removed);
    QFETCH(bool, complete);
    const QByteArray cursor = baseline();
    QVERIFY(!cursor.isEmpty());

    apply(change);
    if (QTest::currentTestFailed())
        return;
    const StoreResult<DirectoryChanges> answer = m_store->changesSince(cursor);

    QVERIFY2(answer.ok(), qPrintable(answer.error().message));
    const DirectoryChanges &changes = answer.value();
    QCOMPARE(keysOf(changes.changed), changed);
    QCOMPARE(sorted(changes.removed), removed);
    QCOMPARE(changes.complete, complete);
    QCOMPARE(changes.unchanged, changed.isEmpty() && removed.isEmpty() && !complete);
    for (const RowSummary &summary : changes.changed) {
        const StoreResult<Row> row = m_store->row(summary.key);
        QVERIFY(row.ok());
        QCOMPARE(summary.updatedAt, row.value().updatedAt);
        QCOMPARE(summary.target, row.value().target);
        QCOMPARE(summary.category, row.value().category);
    }
    // From the new cursor on, the same change is not reported again.
    const StoreResult<DirectoryChanges> again = m_store->changesSince(changes.cursor);
    QVERIFY(again.ok());
    QVERIFY(again.value().unchanged);
}

void TestSqliteChangeFeed::baselineThenNoChangeIsUnchanged()
{
    const QByteArray cursor = baseline();
    for (int poll = 0; poll < 3; ++poll) {
        const StoreResult<DirectoryChanges> answer = m_store->changesSince(cursor);
        QVERIFY(answer.ok());
        QVERIFY(answer.value().unchanged);
        QCOMPARE(answer.value().cursor, cursor);
        QVERIFY(answer.value().changed.isEmpty());
        QVERIFY(answer.value().removed.isEmpty());
    }
}

void TestSqliteChangeFeed::garbledCursorsAreCompleteListings_data()
{
    QTest::addColumn<QByteArray>("cursor");
    // init() writes two rows, so the log has events 1 and 2.
    QTest::addRow("words") << QByteArrayLiteral("tell me everything");
    QTest::addRow("binary") << QByteArray("\x00\xff\xfe:\x01", 5);
    QTest::addRow("empty fields") << QByteArrayLiteral("sqlite1::::");
    QTest::addRow("another tag") << QByteArrayLiteral("sqlite9:-:-:2:-");
    QTest::addRow("a field too many") << QByteArrayLiteral("sqlite1:-:-:2:-:1");
    QTest::addRow("1 MiB") << QByteArray(1024 * 1024, 'x');
    QTest::addRow("negative seq") << QByteArrayLiteral("sqlite1:-:-:-1:-");
    QTest::addRow("seq past int64") << QByteArrayLiteral("sqlite1:-:-:99999999999999999999:-");
    QTest::addRow("seq with a sign") << QByteArrayLiteral("sqlite1:-:-:+1:-");
    QTest::addRow("seq beyond the log") << QByteArrayLiteral("sqlite1:-:-:999999:-");
    QTest::addRow("hash not hex") << QByteArray("sqlite1:-:-:2:" + QByteArray(64, 'z'));
    QTest::addRow("hash of another event") << QByteArray("sqlite1:-:-:2:" + QByteArray(64, 'a'));
    QTest::addRow("feed id upper case") << QByteArrayLiteral("sqlite1:ABCDEF0123456789:1:2:-");
    QTest::addRow("feed id too short") << QByteArrayLiteral("sqlite1:abc:1:2:-");
    QTest::addRow("data version not a number") << QByteArrayLiteral("sqlite1:-:1e3:2:-");
}

void TestSqliteChangeFeed::garbledCursorsAreCompleteListings()
{
    QFETCH(QByteArray, cursor);
    const StoreResult<DirectoryChanges> answer = m_store->changesSince(cursor);
    QVERIFY2(answer.ok(), qPrintable(answer.error().message));
    QVERIFY(answer.value().complete);
    QVERIFY(!answer.value().unchanged);
    QCOMPARE(keysOf(answer.value().changed), (QStringList{u"ALPHA"_s, u"BRAVO"_s}));
    QVERIFY(answer.value().removed.isEmpty());
    QVERIFY(m_store->changesSince(answer.value().cursor).value().unchanged);
}

void TestSqliteChangeFeed::aCursorOfAnotherFileIsACompleteListing()
{
    auto other = SqlDirectoryStore::open(m_dir->filePath(u"other.db"_s));
    QVERIFY(other.ok());
    for (const char *key : {"ALPHA", "BRAVO"})
        QVERIFY(other.value()->create(sampleRow(QLatin1String(key))).ok());
    const QByteArray theirs = other.value()->changesSince(QByteArray()).value().cursor;
    QCOMPARE(SqliteChangeFeed::eventSeqOf(theirs), SqliteChangeFeed::eventSeqOf(baseline()));

    const StoreResult<DirectoryChanges> answer = m_store->changesSince(theirs);

    QVERIFY(answer.ok());
    QVERIFY(answer.value().complete); // same seq, another log: its hash says so
}

void TestSqliteChangeFeed::outsideWritesAreRecordedOnceForEveryReader()
{
    const QByteArray before = baseline();
    auto second = SqlDirectoryStore::open(m_path); // another reader of the same file
    QVERIFY(second.ok());
    const QByteArray secondBefore = second.value()->changesSince(QByteArray()).value().cursor;
    QCOMPARE(execRaw({u"UPDATE directory SET target = 'upper'"_s}), QString());

    QVERIFY(m_store->changesSince(before).value().complete);
    QVERIFY(second.value()->changesSince(secondBefore).value().complete);
    QVERIFY(m_store->changesSince(before).value().complete); // still: a delta cannot be told

    const QList<LogEvent> events = EventLog(m_store->database()).events().value();
    const auto outside = std::count_if(events.cbegin(), events.cend(), [](const LogEvent &event) {
        return event.kind == SqliteChangeFeed::kOutsideWriteKind;
    });
    QCOMPARE(outside, 1);
    QCOMPARE(events.first().kind, SqliteChangeFeed::kOutsideWriteKind);
    QCOMPARE(events.first().detail.value(u"row_writes"_s).toInteger(), 2); // both rows
    QVERIFY(events.first().key.isNull());
    QVERIFY(EventLog(m_store->database()).verify().value().intact);
    const QByteArray after = baseline();
    QVERIFY(m_store->changesSince(after).value().unchanged);
}

void TestSqliteChangeFeed::ownWritesAreNotCountedAsOutside()
{
    QVERIFY(m_store->create(sampleRow(u"CHARLIE"_s)).ok());
    QVERIFY(m_store->patch(u"CHARLIE"_s, {{u"category"_s, u"x"_s}}).ok());
    QVERIFY(!m_store->remove(u"CHARLIE"_s).isError());
    QVERIFY(!m_store->importRows({sampleRow(u"DELTA"_s)}).isError());
    QSqlQuery marks(m_store->database());
    QVERIFY(marks.exec(u"SELECT logging, counted, recorded FROM directory_outside_writes"_s));
    QVERIFY(marks.next());
    QCOMPARE(marks.value(0).toInt(), 0); // never left set after a commit
    QCOMPARE(marks.value(1).toInt(), 0);
    QCOMPARE(marks.value(2).toInt(), 0);
}

void TestSqliteChangeFeed::droppedTriggersMakeEveryChangeComplete()
{
    QCOMPARE(execRaw({u"DROP TRIGGER directory_outside_update"_s}), QString());
    const QByteArray cursor = baseline();
    QVERIFY(m_store->changesSince(cursor).value().unchanged); // nothing changed: still cheap

    QVERIFY(m_store->patch(u"ALPHA"_s, {{u"category"_s, u"x"_s}}).ok());
    const StoreResult<DirectoryChanges> answer = m_store->changesSince(cursor);

    QVERIFY(answer.ok());
    QVERIFY(answer.value().complete); // an outside update could no longer be seen
}

void TestSqliteChangeFeed::aLargeDeltaIsAListing()
{
    const QByteArray cursor = baseline();
    QList<Row> rows;
    for (int i = 0; i <= SqliteChangeFeed::kMaxDeltaKeys; ++i)
        rows.append(sampleRow(u"BULK_%1"_s.arg(i, 5, 10, QChar(u'0'))));
    QVERIFY(!m_store->importRows(rows).isError());

    const StoreResult<DirectoryChanges> answer = m_store->changesSince(cursor);

    QVERIFY(answer.ok());
    QVERIFY(answer.value().complete);
    QCOMPARE(answer.value().changed.size(), rows.size() + 2);
}

void TestSqliteChangeFeed::anotherProcessPutsARow()
{
    const QByteArray cursor = baseline();
    Row row = sampleRow(u"ALPHA"_s);
    row.target = u"lower"_s;
    const ProcessRun::Result put = ProcessRun::run(ServeProcess::program(), {u"put"_s, u"--db"_s, m_path},
                                                   QJsonDocument(row.toJson()).toJson());
    QVERIFY2(put.finished && put.exitCode == 0, put.err.constData());

    const StoreResult<DirectoryChanges> answer = m_store->changesSince(cursor);

    QVERIFY(answer.ok());
    QVERIFY(!answer.value().complete);
    QCOMPARE(keysOf(answer.value().changed), QStringList{u"ALPHA"_s});
    QCOMPARE(answer.value().changed.first().target, u"lower"_s);
}

void TestSqliteChangeFeed::answersOnAnyThread()
{
    QByteArray cursor;
    std::thread([&] { cursor = m_store->changesSince(QByteArray()).value().cursor; }).join();
    QVERIFY(m_store->create(sampleRow(u"CHARLIE"_s)).ok());

    std::optional<DirectoryChanges> seen;
    std::thread([&] { seen = m_store->changesSince(cursor).value(); }).join();
    QVERIFY(seen);
    QCOMPARE(keysOf(seen->changed), QStringList{u"CHARLIE"_s});

    std::optional<DirectoryChanges> again;
    std::thread([&] { again = m_store->changesSince(seen->cursor).value(); }).join();
    QVERIFY(again && again->unchanged);
    QVERIFY(m_store->changesSince(seen->cursor).value().unchanged); // and on this thread
}

void TestSqliteChangeFeed::serverCursorsStandAtAnEvent()
{
    const std::optional<qint64> now = SqliteChangeFeed::eventSeqOf(baseline());
    QVERIFY(now);
    QVERIFY(m_store->patch(u"BRAVO"_s, {{u"category"_s, u"x"_s}}).ok());

    const StoreResult<DirectoryChanges> answer = m_store->changesSince(SqliteChangeFeed::cursorAtEvent(*now));

    QVERIFY(answer.ok());
    QCOMPARE(keysOf(answer.value().changed), QStringList{u"BRAVO"_s});
    QCOMPARE(SqliteChangeFeed::eventSeqOf(answer.value().cursor), *now + 1);
    const StoreResult<DirectoryChanges> fromZero = m_store->changesSince(SqliteChangeFeed::cursorAtEvent(0));
    QCOMPARE(keysOf(fromZero.value().changed), (QStringList{u"ALPHA"_s, u"BRAVO"_s}));
    QVERIFY(!fromZero.value().complete);
    QVERIFY(find(fromZero.value().changed, u"BRAVO"_s)->category == u"x"_s);
}

QTEST_GUILESS_MAIN(TestSqliteChangeFeed)
#include "tst_sqlitechangefeed.moc"
