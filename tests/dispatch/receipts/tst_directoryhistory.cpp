#include "dispatch/call/invocationhandle.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/localdispatcher.h"
#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/runners/fnrunner.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/dispatch/ledgertestrows.h"
#include "tests/support/rawsql.h"

#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

// DirectoryHistory is what the History tab and `capdeskctl log` read the event log and the
// receipt chains through, on any thread, without SQL of their own.
class TestDirectoryHistory : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void eventsOfOneKeyNewestFirst_data();
    void eventsOfOneKeyNewestFirst();
    void eventsReadOnAWorkerThread();
    void auditNamesTampering_data();
    void auditNamesTampering();
    void anAnchorIsMadeOnlyOfAnIntactLog_data();
    void anAnchorIsMadeOnlyOfAnIntactLog();

private:
    void issueReceipts(int count);
    QString path() const { return m_dir->filePath(u"d.db"_s); }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    std::unique_ptr<DirectoryHistory> m_history;
};

void TestDirectoryHistory::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto opened = SqlDirectoryStore::open(path());
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
    m_ledger = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly);
    m_history = std::make_unique<DirectoryHistory>(m_store);
    QVERIFY(!m_store->importRows({fnRow(u"SHOUT"_s, u"upper"_s), fnRow(u"OTHER"_s, u"upper"_s)}).isError());
    const StoreResult<WriteOutcome> patched = m_store->patch(u"SHOUT"_s, {{u"category"_s, u"text"_s}});
    QVERIFY2(patched.ok(), qPrintable(patched.error().message));
}

void TestDirectoryHistory::cleanup()
{
    m_history.reset();
    m_ledger.reset();
    m_store.reset();
}

void TestDirectoryHistory::issueReceipts(int count)
{
    LocalDispatcher dispatcher(m_store, nullptr, m_ledger);
    dispatcher.setRunner(u"fn"_s, std::make_unique<FnRunner>());
    for (int i = 0; i < count; ++i) {
        std::unique_ptr<InvocationHandle> handle(dispatcher.invoke({u"SHOUT"_s, u"a%1"_s.arg(i), false, {}}));
        if (!handle->isFinished())
            QVERIFY(QSignalSpy(handle.get(), &InvocationHandle::finished).wait(10000));
        QVERIFY(handle->outcome().receipt.has_value());
    }
}

void TestDirectoryHistory::eventsOfOneKeyNewestFirst_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QStringList>("keys");
    QTest::addRow("one key") << u"SHOUT"_s << QStringList{u"SHOUT"_s, u"SHOUT"_s};
    QTest::addRow("another key") << u"OTHER"_s << QStringList{u"OTHER"_s};
    QTest::addRow("every key") << QString() << QStringList{u"SHOUT"_s, u"OTHER"_s, u"SHOUT"_s};
    QTest::addRow("a key with no events") << u"NOBODY"_s << QStringList{};
}

void TestDirectoryHistory::eventsOfOneKeyNewestFirst()
{
    QFETCH(QString, key);
    QFETCH(QStringList, keys);
    const StoreResult<QList<LogEvent>> events = m_history->events(key);
    QVERIFY2(events.ok(), qPrintable(events.error().message));
    QStringList found;
    for (const LogEvent &event : events.value())
        found.append(event.key);
    QCOMPARE(found, keys);
    for (qsizetype i = 1; i < events.value().size(); ++i)
        QVERIFY(events.value().at(i - 1).seq > events.value().at(i).seq);
}

void TestDirectoryHistory::eventsReadOnAWorkerThread()
{
    const DirectoryHistory *history = m_history.get();
    const qsizetype count = QtConcurrent::run([history] {
                                const StoreResult<QList<LogEvent>> events = history->events(u"SHOUT"_s);
                                return events.ok() ? events.value().size() : qsizetype(-1);
                            }).result();
    QCOMPARE(count, 2);
}

void TestDirectoryHistory::auditNamesTampering_data()
{
    QTest::addColumn<QStringList>("sql");
    QTest::addColumn<QString>("code");
    QTest::addColumn<int>("receipts");
    QTest::addRow("untouched") << QStringList{} << QString() << 3;
    QTest::addRow("a receipt deleted")
        << QStringList{u"DROP TRIGGER receipts_refuse_delete"_s, u"DELETE FROM receipts WHERE seq = 2"_s}
        << u"receipt_missing"_s << 2;
    QTest::addRow("an event edited") << QStringList{u"DROP TRIGGER events_refuse_update"_s,
                                                    u"UPDATE events SET actor = 'evil' WHERE seq = 1"_s}
                                     << u"event_chain_broken"_s << 3;
}

void TestDirectoryHistory::auditNamesTampering()
{
    QFETCH(QStringList, sql);
    QFETCH(QString, code);
    QFETCH(int, receipts);
    issueReceipts(3);
    const QString failed = RawSql::exec(path(), sql);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const StoreResult<SigningKey> key = m_ledger->signingKey();
    QVERIFY(key.ok());

    const StoreResult<ReceiptLogAudit::Report> trusted = m_history->audit({key.value().publicKey()});
    const StoreResult<ReceiptLogAudit::Report> listed = m_history->auditTrustingListedKeys();
    for (const auto *report : {&trusted, &listed}) {
        QVERIFY2(report->ok(), qPrintable(report->error().message));
        QCOMPARE(report->value().intact(), code.isEmpty());
        QStringList codes;
        for (const ReceiptLogAudit::Finding &finding : report->value().findings)
            codes.append(finding.code);
        if (!code.isEmpty())
            QVERIFY2(codes.contains(code), qPrintable(codes.join(u", "_s)));
    }
    QCOMPARE(trusted.value().receipts, receipts);
}

void TestDirectoryHistory::anAnchorIsMadeOnlyOfAnIntactLog_data()
{
    QTest::addColumn<QStringList>("sql");
    QTest::addColumn<bool>("anchored");
    QTest::addRow("intact") << QStringList{} << true;
    QTest::addRow("a receipt deleted")
        << QStringList{u"DROP TRIGGER receipts_refuse_delete"_s, u"DELETE FROM receipts WHERE seq = 1"_s}
        << false;
}

void TestDirectoryHistory::anAnchorIsMadeOnlyOfAnIntactLog()
{
    QFETCH(QStringList, sql);
    QFETCH(bool, anchored);
    issueReceipts(2);
    const QString failed = RawSql::exec(path(), sql);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const StoreResult<SigningKey> key = m_ledger->signingKey();
    QVERIFY(key.ok());
    const StoreResult<DirectoryHistory::Anchoring> anchoring = m_history->anchor(key.value());
    QVERIFY2(anchoring.ok(), qPrintable(anchoring.error().message));
    QCOMPARE(anchoring.value().report.intact(), anchored);
    QCOMPARE(anchoring.value().anchor.has_value(), anchored);
    if (!anchored)
        return;
    // The anchor is of the log as audited: checked against it, nothing is missing.
    const ReceiptLogAnchor &anchor = *anchoring.value().anchor;
    QVERIFY(anchor.selfSigned());
    const StoreResult<ReceiptLogAudit::Report> against = m_history->audit({key.value().publicKey()}, &anchor);
    QVERIFY(against.ok());
    QVERIFY(against.value().anchorChecked);
    QVERIFY(against.value().intact());
}

QTEST_GUILESS_MAIN(TestDirectoryHistory)
#include "tst_directoryhistory.moc"
