#include "dispatch/json/canonicaljson.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/store/writetransaction.h"
#include "tests/support/rawsql.h"

#include <QCryptographicHash>
#include <QTemporaryDir>
#include <QTest>

namespace {

Row sampleRow(const QString &key, const QString &target = QStringLiteral("echo"))
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = target;
    // Compliant (SPEC §8), since the store gates creates; these tests are about other things.
    row.content = QStringLiteral("# WHAT: echo\n# WHEN_TO_USE: tests.\n# ARGS: $1=text\n# EX: [%1]hi[/%1]\n"
                                 "# OUTPUT: the text\n[\"$1\"]")
                      .arg(key);
    row.category = QStringLiteral("tools");
    return row;
}

enum class Mutation {
    Create,
    Replace,
    PutNew,
    PutExisting,
    Patch,
    Remove,
    Import,
    ApplyCreate,
    ApplyReplace,
    ApplyDelete
};

} // namespace

class TestEventLog : public QObject
{
    Q_OBJECT

private slots:
    void eachMutationAppendsOneEvent_data();
    void eachMutationAppendsOneEvent();
    void eventsRecordTheActor();
    void importAppendsOneEventPerRow();
    void failedWritesAppendNothing_data();
    void failedWritesAppendNothing();
    void chainVerifiesIntact();
    void hashIsTheCanonicalJsonOfTheEvent();
    void eventsAreNewestFirstByKeyAndLimit();
    void appendOutsideAStoreKeepsTheChain();
    void appendOutsideATransactionIsRefused();
    void sqlCannotUpdateOrDeleteEvents_data();
    void sqlCannotUpdateOrDeleteEvents();
    void tamperingIsDetected_data();
    void tamperingIsDetected();
    void rewrittenEventBreaksTheNextLink();
    void twoStoresOnOneFileKeepOneChain();

private:
    std::shared_ptr<SqlDirectoryStore> openStore(const QString &path);
    QString freshPath() { return m_dir.filePath(QStringLiteral("e%1.db").arg(++m_counter)); }
    static QList<LogEvent> allEvents(const SqlDirectoryStore &store);
    static EventLog::Verification verify(const SqlDirectoryStore &store);

    QTemporaryDir m_dir;
    int m_counter = 0;
};

std::shared_ptr<SqlDirectoryStore> TestEventLog::openStore(const QString &path)
{
    auto opened = SqlDirectoryStore::open(path);
    if (!opened.ok())
        qWarning("%s", qPrintable(opened.error().message));
    return opened.ok() ? opened.value() : nullptr;
}

QList<LogEvent> TestEventLog::allEvents(const SqlDirectoryStore &store)
{
    const StoreResult<QList<LogEvent>> events = EventLog(store.database()).events();
    if (!events.ok())
        qWarning("%s", qPrintable(events.error().message));
    return events.ok() ? events.value() : QList<LogEvent>();
}

EventLog::Verification TestEventLog::verify(const SqlDirectoryStore &store)
{
    const StoreResult<EventLog::Verification> verified = EventLog(store.database()).verify();
    if (!verified.ok()) {
        qWarning("%s", qPrintable(verified.error().message));
        return {false, 0, -1, verified.error().message};
    }
    return verified.value();
}

void TestEventLog::eachMutationAppendsOneEvent_data()
{
    QTest::addColumn<Mutation>("mutation");
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("hasBefore");
    QTest::addColumn<bool>("hasAfter");

    QTest::addRow("create") << Mutation::Create << "create"
                            << "NEW_ROW" << false << true;
    QTest::addRow("replace") << Mutation::Replace << "replace"
                             << "SEED" << true << true;
    QTest::addRow("put a new key") << Mutation::PutNew << "create"
                                   << "NEW_ROW" << false << true;
    QTest::addRow("put an existing key") << Mutation::PutExisting << "replace"
                                         << "SEED" << true << true;
    QTest::addRow("patch") << Mutation::Patch << "patch"
                           << "SEED" << true << true;
    QTest::addRow("remove") << Mutation::Remove << "delete"
                            << "SEED" << true << false;
    QTest::addRow("import") << Mutation::Import << "import"
                            << "NEW_ROW" << false << true;
    QTest::addRow("apply create") << Mutation::ApplyCreate << "create"
                                  << "NEW_ROW" << false << true;
    QTest::addRow("apply replace") << Mutation::ApplyReplace << "replace"
                                   << "SEED" << true << true;
    QTest::addRow("apply delete") << Mutation::ApplyDelete << "delete"
                                  << "SEED" << true << false;
}

void TestEventLog::eachMutationAppendsOneEvent()
{
    QFETCH(Mutation, mutation);
    QFETCH(QString, action);
    QFETCH(QString, key);
    QFETCH(bool, hasBefore);
    QFETCH(bool, hasAfter);

    auto store = openStore(freshPath());
    QVERIFY(store);
    QVERIFY(store->create(sampleRow(QStringLiteral("SEED"))).ok());
    const QJsonObject seedBefore = store->row(QStringLiteral("SEED")).value().toJson();
    QCOMPARE(allEvents(*store).size(), 1);

    const Row changed = sampleRow(QStringLiteral("SEED"), QStringLiteral("upper"));
    StoreError error;
    switch (mutation) {
    case Mutation::Create:
        error = store->create(sampleRow(key)).error();
        break;
    case Mutation::Replace:
        error = store->replace(changed).error();
        break;
    case Mutation::PutNew:
        error = store->put(sampleRow(key)).error();
        break;
    case Mutation::PutExisting:
        error = store->put(changed).error();
        break;
    case Mutation::Patch:
        error = store->patch(key, {{QStringLiteral("target"), QStringLiteral("upper")}}).error();
        break;
    case Mutation::Remove:
        error = store->remove(key);
        break;
    case Mutation::Import: {
        Row imported = sampleRow(key);
        imported.updatedAt = QStringLiteral("2026-01-01T00:00:00.000Z");
        error = store->importRows({imported});
        break;
    }
    case Mutation::ApplyCreate:
        error = store->apply({RowChange::create(sampleRow(key))});
        break;
    case Mutation::ApplyReplace:
        error = store->apply({RowChange::replace(changed)});
        break;
    case Mutation::ApplyDelete:
        error = store->apply({RowChange::remove(key)});
        break;
    }
    QVERIFY2(!error.isError(), qPrintable(error.message));

    const QList<LogEvent> events = allEvents(*store);
    QCOMPARE(events.size(), 2);
    const LogEvent &event = events.first();
    QCOMPARE(event.seq, 2);
    QCOMPARE(event.kind, QStringLiteral("DIRECTORY_MUTATE"));
    QCOMPARE(event.action, action);
    QCOMPARE(event.key, key);
    QCOMPARE(event.actor, QStringLiteral("owner:local"));
    QVERIFY(!event.at.isEmpty());
    QCOMPARE(event.before.isObject(), hasBefore);
    QCOMPARE(event.after.isObject(), hasAfter);
    if (hasBefore)
        QCOMPARE(event.before.toObject(), seedBefore);
    if (hasAfter)
        QCOMPARE(event.after.toObject(), store->row(key).value().toJson());
    else
        QCOMPARE(store->row(key).error().kind, StoreError::Kind::NotFound);
    QCOMPARE(event.prevHash, events.last().hash);
    QVERIFY(verify(*store).intact);
}

void TestEventLog::eventsRecordTheActor()
{
    auto store = openStore(freshPath());
    QVERIFY(store);
    QCOMPARE(store->actor(), QStringLiteral("owner:local"));
    store->setActor(QStringLiteral("token:t_42"));
    QCOMPARE(store->actor(), QStringLiteral("token:t_42"));
    QVERIFY(store->create(sampleRow(QStringLiteral("ECHO"))).ok());
    QCOMPARE(allEvents(*store).first().actor, QStringLiteral("token:t_42"));
}

void TestEventLog::importAppendsOneEventPerRow()
{
    auto store = openStore(freshPath());
    QVERIFY(store);
    const QStringList keys{QStringLiteral("ALPHA"), QStringLiteral("BETA"), QStringLiteral("GAMMA")};
    QList<Row> rows;
    for (const QString &key : keys)
        rows.append(sampleRow(key));
    QVERIFY(!store->importRows(rows).isError());

    const QList<LogEvent> events = allEvents(*store);
    QCOMPARE(events.size(), 3);
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const LogEvent &event = events.at(keys.size() - 1 - i); // newest first
        QCOMPARE(event.seq, i + 1);
        QCOMPARE(event.action, QStringLiteral("import"));
        QCOMPARE(event.key, keys.at(i));
        QVERIFY(event.before.isNull());
        QCOMPARE(event.after.toObject(), store->row(keys.at(i)).value().toJson());
    }
    QVERIFY(verify(*store).intact);
}

void TestEventLog::failedWritesAppendNothing_data()
{
    QTest::addColumn<QString>("write");
    QTest::addRow("create of an invalid row") << "create-invalid";
    QTest::addRow("create of a taken key") << "create-taken";
    QTest::addRow("replace of a missing row") << "replace-missing";
    QTest::addRow("stale replace") << "replace-stale";
    QTest::addRow("patch naming no field") << "patch-none";
    QTest::addRow("patch of a missing row") << "patch-missing";
    QTest::addRow("remove of a missing row") << "remove-missing";
    QTest::addRow("stale remove") << "remove-stale";
    QTest::addRow("import with a duplicate") << "import-duplicate";
    QTest::addRow("apply failing at its second change") << "apply-second";
}

void TestEventLog::failedWritesAppendNothing()
{
    QFETCH(QString, write);
    auto store = openStore(freshPath());
    QVERIFY(store);
    QVERIFY(store->create(sampleRow(QStringLiteral("SEED"))).ok());
    const QString stale = QStringLiteral("2000-01-01T00:00:00.000Z");

    StoreError error;
    if (write == QLatin1String("create-invalid"))
        error = store->create(sampleRow(QStringLiteral("bad key"))).error();
    else if (write == QLatin1String("create-taken"))
        error = store->create(sampleRow(QStringLiteral("SEED"))).error();
    else if (write == QLatin1String("replace-missing"))
        error = store->replace(sampleRow(QStringLiteral("MISSING"))).error();
    else if (write == QLatin1String("replace-stale"))
        error = store->replace(sampleRow(QStringLiteral("SEED"), QStringLiteral("upper")), stale).error();
    else if (write == QLatin1String("patch-none"))
        error = store->patch(QStringLiteral("SEED"), {{QStringLiteral("nope"), 1}}).error();
    else if (write == QLatin1String("patch-missing"))
        error = store->patch(QStringLiteral("MISSING"), {{QStringLiteral("target"), QStringLiteral("x")}})
                    .error();
    else if (write == QLatin1String("remove-missing"))
        error = store->remove(QStringLiteral("MISSING"));
    else if (write == QLatin1String("remove-stale"))
        error = store->remove(QStringLiteral("SEED"), stale);
    else if (write == QLatin1String("import-duplicate"))
        error = store->importRows({sampleRow(QStringLiteral("FRESH")), sampleRow(QStringLiteral("SEED"))});
    else if (write == QLatin1String("apply-second"))
        error = store->apply({RowChange::create(sampleRow(QStringLiteral("FRESH"))),
                              RowChange::remove(QStringLiteral("MISSING"))});
    QVERIFY(error.isError());

    QCOMPARE(allEvents(*store).size(), 1);
    QCOMPARE(store->row(QStringLiteral("FRESH")).error().kind, StoreError::Kind::NotFound);
    const EventLog::Verification verification = verify(*store);
    QVERIFY2(verification.intact, qPrintable(verification.problem));
    QCOMPARE(verification.checked, 1);
}

void TestEventLog::chainVerifiesIntact()
{
    auto store = openStore(freshPath());
    QVERIFY(store);
    EventLog::Verification empty = verify(*store);
    QVERIFY(empty.intact);
    QCOMPARE(empty.checked, 0);

    QVERIFY(store->create(sampleRow(QStringLiteral("ECHO"))).ok());
    QVERIFY(store->patch(QStringLiteral("ECHO"), {{QStringLiteral("enabled"), 0}}).ok());
    QVERIFY(store->replace(sampleRow(QStringLiteral("ECHO"), QStringLiteral("upper"))).ok());
    QVERIFY(!store->importRows({sampleRow(QStringLiteral("ALPHA")), sampleRow(QStringLiteral("BETA"))})
                 .isError());
    QVERIFY(!store->remove(QStringLiteral("ALPHA")).isError());

    const EventLog::Verification verification = verify(*store);
    QVERIFY2(verification.intact, qPrintable(verification.problem));
    QCOMPARE(verification.checked, 6);
    QCOMPARE(verification.firstBrokenSeq, 0);
    const QJsonObject json = verification.toJson();
    QCOMPARE(json.value(QStringLiteral("intact")), QJsonValue(true));
    QCOMPARE(json.value(QStringLiteral("checked")).toInteger(), 6);
    QVERIFY(json.value(QStringLiteral("first_broken_seq")).isNull());

    const QList<LogEvent> events = allEvents(*store);
    QCOMPARE(events.last().prevHash, EventLog::kGenesisHash);
    for (qsizetype i = 0; i + 1 < events.size(); ++i)
        QCOMPARE(events.at(i).prevHash, events.at(i + 1).hash);
}

void TestEventLog::hashIsTheCanonicalJsonOfTheEvent()
{
    auto store = openStore(freshPath());
    QVERIFY(store);
    Row row = sampleRow(QStringLiteral("ECHO"));
    row.content = QStringLiteral("# WHAT: \"quoted\" ünïcode \t tab\n# WHEN_TO_USE: t\n# ARGS: $1=x\n"
                                 "# EX: [ECHO]x[/ECHO]\n# OUTPUT: x\n[\"$1\"]");
    QVERIFY(store->create(row).ok());
    QVERIFY(store->remove(QStringLiteral("ECHO")).isError() == false);

    for (const LogEvent &event : allEvents(*store)) {
        QJsonObject object = EventLog::toJson(event);
        QCOMPARE(object.value(QStringLiteral("hash")).toString(), event.hash);
        object.remove(QStringLiteral("hash"));
        const QByteArray expected =
            QCryptographicHash::hash(CanonicalJson::serialize(object), QCryptographicHash::Sha256).toHex();
        QCOMPARE(event.hash.toLatin1(), expected);
    }
}

void TestEventLog::eventsAreNewestFirstByKeyAndLimit()
{
    auto store = openStore(freshPath());
    QVERIFY(store);
    QVERIFY(store->create(sampleRow(QStringLiteral("ECHO"))).ok());
    QVERIFY(store->create(sampleRow(QStringLiteral("OTHER"))).ok());
    QVERIFY(store->patch(QStringLiteral("ECHO"), {{QStringLiteral("target"), QStringLiteral("upper")}}).ok());
    QVERIFY(!store->remove(QStringLiteral("ECHO")).isError());

    const EventLog log(store->database());
    const QList<LogEvent> echo = log.events(QStringLiteral("ECHO")).value();
    QCOMPARE(echo.size(), 3);
    QCOMPARE(echo.at(0).action, QStringLiteral("delete"));
    QCOMPARE(echo.at(1).action, QStringLiteral("patch"));
    QCOMPARE(echo.at(2).action, QStringLiteral("create"));
    QCOMPARE(echo.at(0).seq, 4);
    QCOMPARE(log.events(QStringLiteral("ECHO"), 1).value().size(), 1);
    QCOMPARE(log.events(QString(), 2).value().first().seq, 4);
    QCOMPARE(log.events().value().size(), 4);
    QVERIFY(log.events(QStringLiteral("NOBODY")).value().isEmpty());
}

void TestEventLog::appendOutsideAStoreKeepsTheChain()
{
    auto store = openStore(freshPath());
    QVERIFY(store);
    QVERIFY(store->create(sampleRow(QStringLiteral("ECHO"))).ok());
    {
        WriteTransaction transaction(store->database());
        EventLog log(store->database());
        LogEvent event;
        event.kind = QStringLiteral("TOKEN_CREATED");
        event.action = QStringLiteral("create");
        event.actor = QStringLiteral("owner:local");
        event.detail = {{QStringLiteral("token_id"), QStringLiteral("t_1")}};
        QVERIFY(!log.append(event).isError());
        QVERIFY(!transaction.commit().isError());
    }
    const QList<LogEvent> events = allEvents(*store);
    QCOMPARE(events.size(), 2);
    QVERIFY(events.first().key.isNull());
    QCOMPARE(events.first().detail.value(QStringLiteral("token_id")).toString(), QStringLiteral("t_1"));
    QVERIFY(verify(*store).intact);
}

void TestEventLog::appendOutsideATransactionIsRefused()
{
    auto store = openStore(freshPath());
    QVERIFY(store);
    LogEvent event;
    event.kind = QStringLiteral("TOKEN_REVOKED");
    event.action = QStringLiteral("revoke");
    event.actor = QStringLiteral("owner:local");
    const StoreError refused = EventLog(store->database()).append(event);
    QVERIFY2(refused.message.contains(QLatin1String("only inside a write transaction")),
             qPrintable(refused.message));
    QVERIFY(allEvents(*store).isEmpty());
}

void TestEventLog::sqlCannotUpdateOrDeleteEvents_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addRow("update") << "UPDATE events SET actor = 'mallory'";
    QTest::addRow("delete") << "DELETE FROM events WHERE seq = 1";
}

void TestEventLog::sqlCannotUpdateOrDeleteEvents()
{
    QFETCH(QString, sql);
    const QString path = freshPath();
    auto store = openStore(path);
    QVERIFY(store);
    QVERIFY(store->create(sampleRow(QStringLiteral("ECHO"))).ok());
    const QList<LogEvent> before = allEvents(*store);

    const QString failure = RawSql::exec(path, {sql});
    QVERIFY2(failure.contains(QLatin1String("append-only")), qPrintable(failure));
    const QList<LogEvent> after = allEvents(*store);
    QCOMPARE(after.size(), before.size());
    QCOMPARE(EventLog::toJson(after.first()), EventLog::toJson(before.first()));
    QVERIFY(verify(*store).intact);
}

void TestEventLog::tamperingIsDetected_data()
{
    QTest::addColumn<QStringList>("statements");
    QTest::addColumn<qint64>("brokenSeq");
    QTest::addColumn<QString>("problem");

    const QString dropUpdate = QStringLiteral("DROP TRIGGER events_refuse_update");
    const QString dropDelete = QStringLiteral("DROP TRIGGER events_refuse_delete");
    QTest::addRow("edited event")
        << QStringList{dropUpdate, QStringLiteral("UPDATE events SET actor = 'mallory' WHERE seq = 2")}
        << qint64(2) << "event #2 was altered: its hash does not match its content";
    QTest::addRow("edited row inside an event")
        << QStringList{dropUpdate,
                       QStringLiteral("UPDATE events SET after_json = replace(after_json, 'echo', 'rm') "
                                      "WHERE seq = 3")}
        << qint64(3) << "event #3 was altered";
    QTest::addRow("edited hash")
        << QStringList{dropUpdate, QStringLiteral("UPDATE events SET hash = 'f00d' WHERE seq = 2")}
        << qint64(2) << "event #2 was altered";
    QTest::addRow("deleted middle event")
        << QStringList{dropDelete, QStringLiteral("DELETE FROM events WHERE seq = 2")} << qint64(2)
        << "event #2 is missing";
    QTest::addRow("deleted first event")
        << QStringList{dropDelete, QStringLiteral("DELETE FROM events WHERE seq = 1")} << qint64(1)
        << "event #1 is missing";
    QTest::addRow("deleted last event")
        << QStringList{dropDelete, QStringLiteral("DELETE FROM events WHERE seq = 4")} << qint64(4)
        << "event #4 is missing: the chain head records #4 but the log ends at #3";
    QTest::addRow("deleted last events and head moved back")
        << QStringList{dropDelete, QStringLiteral("DELETE FROM events WHERE seq = 4"),
                       QStringLiteral("UPDATE event_chain_head SET seq = 3, hash = 'x'")}
        << qint64(3) << "event #3 was altered: it does not match the chain head";
    QTest::addRow("event inserted behind the log's back") << QStringList{
        QStringLiteral("INSERT INTO events (seq, kind, action, key, actor, at, detail, prev_hash, hash) "
                       "SELECT 5, kind, action, key, actor, at, detail, hash, hash FROM events "
                       "WHERE seq = 4")} << qint64(5) << "event #5 was altered";
}

void TestEventLog::tamperingIsDetected()
{
    QFETCH(QStringList, statements);
    QFETCH(qint64, brokenSeq);
    QFETCH(QString, problem);

    const QString path = freshPath();
    auto store = openStore(path);
    QVERIFY(store);
    QVERIFY(store->create(sampleRow(QStringLiteral("ECHO"))).ok());
    QVERIFY(store->create(sampleRow(QStringLiteral("OTHER"))).ok());
    QVERIFY(
        store->patch(QStringLiteral("ECHO"), {{QStringLiteral("category"), QStringLiteral("text")}}).ok());
    QVERIFY(
        store->patch(QStringLiteral("OTHER"), {{QStringLiteral("category"), QStringLiteral("text")}}).ok());
    QVERIFY(verify(*store).intact);

    const QString failure = RawSql::exec(path, statements);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const EventLog::Verification verification = verify(*store);
    QVERIFY(!verification.intact);
    QCOMPARE(verification.firstBrokenSeq, brokenSeq);
    QVERIFY2(verification.problem.contains(problem), qPrintable(verification.problem));
    const QJsonObject json = verification.toJson();
    QCOMPARE(json.value(QStringLiteral("intact")), QJsonValue(false));
    QCOMPARE(json.value(QStringLiteral("first_broken_seq")).toInteger(), brokenSeq);
    QCOMPARE(json.value(QStringLiteral("problem")).toString(), verification.problem);
}

void TestEventLog::rewrittenEventBreaksTheNextLink()
{
    const QString path = freshPath();
    auto store = openStore(path);
    QVERIFY(store);
    QVERIFY(store->create(sampleRow(QStringLiteral("ECHO"))).ok());
    QVERIFY(store->create(sampleRow(QStringLiteral("OTHER"))).ok());
    QVERIFY(store->create(sampleRow(QStringLiteral("THIRD"))).ok());

    // A forger who edits event #2 and gives it a correct hash of its new content.
    LogEvent forged = allEvents(*store).at(1);
    QCOMPARE(forged.seq, 2);
    forged.actor = QStringLiteral("mallory");
    QJsonObject object = EventLog::toJson(forged);
    object.remove(QStringLiteral("hash"));
    const QByteArray hash =
        QCryptographicHash::hash(CanonicalJson::serialize(object), QCryptographicHash::Sha256).toHex();
    const QString failure =
        RawSql::exec(path, {QStringLiteral("DROP TRIGGER events_refuse_update"),
                            QStringLiteral("UPDATE events SET actor = 'mallory', hash = '%1' WHERE seq = 2")
                                .arg(QString::fromLatin1(hash))});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));

    const EventLog::Verification verification = verify(*store);
    QVERIFY(!verification.intact);
    QCOMPARE(verification.firstBrokenSeq, 3);
    QVERIFY2(verification.problem.contains(QLatin1String("event #3 does not follow event #2")),
             qPrintable(verification.problem));
}

void TestEventLog::twoStoresOnOneFileKeepOneChain()
{
    const QString path = freshPath();
    auto gui = openStore(path);
    auto cli = openStore(path);
    QVERIFY(gui && cli);
    cli->setActor(QStringLiteral("owner:cli"));

    QVERIFY(gui->create(sampleRow(QStringLiteral("ECHO"))).ok());
    QVERIFY(cli->create(sampleRow(QStringLiteral("OTHER"))).ok());
    QVERIFY(gui->patch(QStringLiteral("OTHER"), {{QStringLiteral("target"), QStringLiteral("upper")}}).ok());
    QVERIFY(
        !cli->importRows({sampleRow(QStringLiteral("ALPHA")), sampleRow(QStringLiteral("BETA"))}).isError());
    QVERIFY(!gui->apply({RowChange::remove(QStringLiteral("ALPHA")),
                         RowChange::create(sampleRow(QStringLiteral("GAMMA")))})
                 .isError());
    QVERIFY(!cli->remove(QStringLiteral("ECHO")).isError());

    for (const auto &store : {gui, cli}) {
        const EventLog::Verification verification = verify(*store);
        QVERIFY2(verification.intact, qPrintable(verification.problem));
        QCOMPARE(verification.checked, 8);
    }
    const QList<LogEvent> events = allEvents(*gui);
    QStringList actors;
    for (const LogEvent &event : events)
        actors.prepend(event.actor);
    QCOMPARE(actors, (QStringList{QStringLiteral("owner:local"), QStringLiteral("owner:cli"),
                                  QStringLiteral("owner:local"), QStringLiteral("owner:cli"),
                                  QStringLiteral("owner:cli"), QStringLiteral("owner:local"),
                                  QStringLiteral("owner:local"), QStringLiteral("owner:cli")}));
}

QTEST_GUILESS_MAIN(TestEventLog)
#include "tst_eventlog.moc"
