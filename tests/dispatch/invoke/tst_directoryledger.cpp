#include "dispatch/call/invocationhandle.h"
#include "dispatch/call/invocationids.h"
#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/core/isotime.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/localdispatcher.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptverifier.h"
#include "dispatch/runners/fnrunner.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/dispatch/ledgertestrows.h"
#include "tests/support/rawsql.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

QByteArray fileHash(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

} // namespace

// Receipts as SPEC §6 has them: signed, append-only, confirmable, outliving their row.
class TestDirectoryLedger : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void confirmReportsTheThreeStatuses();
    void aRowHoldingAnotherReceiptIsNotConfirmed();
    void unknownTokenRefusalsAreSummarised();
    void receiptsSurviveTheRowsDeletion();
    void sqlCannotUpdateOrDeleteAReceipt_data();
    void sqlCannotUpdateOrDeleteAReceipt();
    void aTamperedReceiptFailsVerification_data();
    void aTamperedReceiptFailsVerification();
    void verificationNeedsTheRightKey();
    void theKeyIsMadeOnceAndKeptBesideTheFile();
    void oneAsynchronousUnlockAnswersEveryCaller();
    void aPublicKeyThatCannotBeHadSaysItCannotBeShown();

private:
    Receipt invoke(const QString &key, const QString &body);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    std::unique_ptr<LocalDispatcher> m_dispatcher;
};

void TestDirectoryLedger::init()
{
    m_dispatcher.reset();
    m_dir = std::make_unique<QTemporaryDir>();
    auto opened = SqlDirectoryStore::open(m_dir->filePath(u"d.db"_s));
    QVERIFY(opened.ok());
    m_store = opened.value();
    QVERIFY(!m_store->importRows({fnRow(u"SHOUT"_s, u"upper"_s), fnRow(u"BOOM"_s, u"fail"_s)}).isError());
    m_ledger = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly);
    m_dispatcher = std::make_unique<LocalDispatcher>(m_store, nullptr, m_ledger);
    m_dispatcher->setRunner(u"fn"_s, std::make_unique<FnRunner>());
}

Receipt TestDirectoryLedger::invoke(const QString &key, const QString &body)
{
    InvocationHandle *handle = m_dispatcher->invoke({key, body, false, {}});
    if (!handle->isFinished())
        QSignalSpy(handle, &InvocationHandle::finished).wait(10000);
    const InvocationOutcome outcome = handle->outcome();
    delete handle;
    return outcome.receipt.value_or(Receipt());
}

void TestDirectoryLedger::confirmReportsTheThreeStatuses()
{
    const Receipt material = invoke(u"SHOUT"_s, u"x"_s);
    const Receipt failed = invoke(u"BOOM"_s, u"no"_s);
    QJsonObject confirmation = m_ledger->confirm(material.invocationId);
    QCOMPARE(confirmation.value(u"confirmed"_s).toBool(), true);
    QCOMPARE(confirmation.value(u"status"_s).toString(), u"PROVEN_MATERIAL_RESULT"_s);
    confirmation = m_ledger->confirm(failed.invocationId);
    QCOMPARE(confirmation.value(u"confirmed"_s).toBool(), true);
    QCOMPARE(confirmation.value(u"status"_s).toString(), u"RAN_WITHOUT_MATERIAL_RESULT"_s);
    confirmation = m_ledger->confirm(u"inv_0000000000"_s);
    QCOMPARE(confirmation.value(u"confirmed"_s).toBool(true), false);
    QCOMPARE(confirmation.value(u"status"_s).toString(), u"UNKNOWN_INVOCATION"_s);
}

void TestDirectoryLedger::aRowHoldingAnotherReceiptIsNotConfirmed()
{
    const Receipt asked = invoke(u"SHOUT"_s, u"x"_s);
    const Receipt other = invoke(u"BOOM"_s, u"y"_s);
    m_dispatcher.reset();
    m_ledger.reset();
    m_store.reset();
    const QString path = m_dir->filePath(u"d.db"_s);
    // Another genuine, validly signed receipt copied into the row of the one asked for.
    const QString failure = RawSql::exec(
        path,
        {u"DROP TRIGGER receipts_refuse_update"_s,
         u"UPDATE receipts SET receipt_json = (SELECT receipt_json FROM receipts WHERE invocation_id = '%1') "
         "WHERE invocation_id = '%2'"_s.arg(other.invocationId, asked.invocationId)});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    auto reopened = SqlDirectoryStore::open(path);
    QVERIFY(reopened.ok());
    DirectoryLedger ledger(reopened.value(), DirectoryLedger::KeyPlacement::FileOnly);
    const QJsonObject confirmation = ledger.confirm(asked.invocationId);
    QCOMPARE(confirmation.value(u"confirmed"_s).toBool(true), false);
    QCOMPARE(confirmation.value(u"reason"_s).toString(), u"receipt_mismatch"_s);
    QCOMPARE(confirmation.value(u"invocation_id"_s).toString(), asked.invocationId);
    QVERIFY(!confirmation.contains(u"receipt"_s));
    QVERIFY(confirmation.value(u"error"_s).toString().contains(other.invocationId));
    QCOMPARE(ledger.confirm(other.invocationId).value(u"confirmed"_s).toBool(), true);
}

void TestDirectoryLedger::unknownTokenRefusalsAreSummarised()
{
    const auto refusals = [this] {
        QList<LogEvent> events = EventLog(m_store->database()).events().value();
        events.removeIf([](const LogEvent &event) { return event.kind != u"CAPABILITY_REFUSED"_s; });
        return events;
    };
    {
        // The refusal after the summary must land within the next interval: a second is
        // ample even for a sanitized build polling the event log.
        DirectoryLedger ledger(m_store, DirectoryLedger::KeyPlacement::FileOnly, 1000);
        for (int i = 0; i < 500; ++i)
            QVERIFY(!ledger.recordRefusal(u"SHOUT"_s, QString(), u"unknown_token"_s, u"token:unknown"_s)
                         .isError());
        // The first at once; the other 499 wait for the interval to end.
        QCOMPARE(refusals().size(), 1);
        QCOMPARE(refusals().first().detail.value(u"count"_s).toInteger(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(refusals().size(), 2, 5000);
        QCOMPARE(refusals().first().detail.value(u"count"_s).toInteger(), 499);
        QVERIFY(
            !ledger.recordRefusal(u"SHOUT"_s, QString(), u"unknown_token"_s, u"token:unknown"_s).isError());
        QVERIFY(!ledger.recordRefusal(u"SHOUT"_s, u"tok_1"_s, u"revoked"_s, u"token:tok_1"_s).isError());
        QCOMPARE(refusals().size(), 3);
        QCOMPARE(refusals().first().detail.value(u"token_id"_s).toString(), u"tok_1"_s);
    }
    // What was still counted is written when the ledger goes.
    QCOMPARE(refusals().size(), 4);
    QCOMPARE(refusals().first().actor, u"token:unknown"_s);
    QCOMPARE(refusals().first().detail.value(u"count"_s).toInteger(), 1);
}

void TestDirectoryLedger::receiptsSurviveTheRowsDeletion()
{
    const Receipt receipt = invoke(u"SHOUT"_s, u"x"_s);
    QVERIFY(!m_store->remove(u"SHOUT"_s).isError());
    QCOMPARE(m_store->row(u"SHOUT"_s).error().kind, StoreError::Kind::NotFound);
    const QJsonObject confirmation = m_ledger->confirm(receipt.invocationId);
    QCOMPARE(confirmation.value(u"confirmed"_s).toBool(), true);
    QCOMPARE(confirmation.value(u"status"_s).toString(), u"PROVEN_MATERIAL_RESULT"_s);
    ReceiptLog::Query byKey;
    byKey.key = u"SHOUT"_s;
    QCOMPARE(m_ledger->receipts().list(byKey).value().size(), 1);
}

void TestDirectoryLedger::sqlCannotUpdateOrDeleteAReceipt_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addRow("update a field") << u"UPDATE receipts SET material = 0"_s;
    QTest::addRow("update the json") << u"UPDATE receipts SET receipt_json = '{}'"_s;
    QTest::addRow("delete one") << u"DELETE FROM receipts WHERE seq = 1"_s;
    QTest::addRow("delete all") << u"DELETE FROM receipts"_s;
}

void TestDirectoryLedger::sqlCannotUpdateOrDeleteAReceipt()
{
    QFETCH(QString, sql);
    invoke(u"SHOUT"_s, u"x"_s);
    invoke(u"BOOM"_s, u"y"_s);
    const QList<Receipt> before = m_ledger->receipts().list({}).value();
    m_store.reset();
    m_ledger.reset();
    m_dispatcher.reset();
    const QString path = m_dir->filePath(u"d.db"_s);
    const QByteArray hashBefore = fileHash(path);

    const QString failure = RawSql::exec(path, {sql});
    QVERIFY2(failure.contains(u"append-only"_s), qPrintable(failure));
    QCOMPARE(fileHash(path), hashBefore);
    auto reopened = SqlDirectoryStore::open(path);
    QVERIFY(reopened.ok());
    const QList<Receipt> after = ReceiptLog(reopened.value()->database()).list({}).value();
    QCOMPARE(after.size(), before.size());
    for (qsizetype i = 0; i < after.size(); ++i)
        QCOMPARE(after.at(i).toJson(), before.at(i).toJson());
}

void TestDirectoryLedger::aTamperedReceiptFailsVerification_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QJsonValue>("value");
    QTest::addRow("key") << u"key"_s << QJsonValue(u"OTHER"_s);
    QTest::addRow("material") << u"material"_s << QJsonValue(false);
    QTest::addRow("status") << u"status"_s << QJsonValue(u"RAN_WITHOUT_MATERIAL_RESULT"_s);
    QTest::addRow("duration") << u"duration_ms"_s << QJsonValue(1);
    QTest::addRow("actor") << u"actor"_s << QJsonValue(u"owner:terminal-key"_s);
    QTest::addRow("parent") << u"parent"_s << QJsonValue(u"inv_aaaaaaaaaa"_s);
    QTest::addRow("cost") << u"cost_usd"_s << QJsonValue(0.01);
    QTest::addRow("fingerprints") << u"fingerprints"_s << QJsonValue(QJsonObject{{u"input"_s, u"0"_s}});
    QTest::addRow("an added field") << u"note"_s << QJsonValue(u"trust me"_s);
    QTest::addRow("signature") << u"signature"_s
                               << QJsonValue(QString::fromLatin1(QByteArray(64, 'x').toBase64()));
    QTest::addRow("signature not base64") << u"signature"_s << QJsonValue(u"%%%"_s);
}

void TestDirectoryLedger::aTamperedReceiptFailsVerification()
{
    QFETCH(QString, field);
    QFETCH(QJsonValue, value);
    const QJsonObject original = invoke(u"SHOUT"_s, u"x"_s).toJson();
    QCOMPARE(ReceiptVerifier::check(original, m_ledger->publicKeys()), ReceiptVerifier::Result::Valid);
    QJsonObject changed = original;
    changed.insert(field, value);
    QCOMPARE(ReceiptVerifier::check(changed, m_ledger->publicKeys()), ReceiptVerifier::Result::Invalid);
    if (original.contains(field)) {
        changed.remove(field);
        QCOMPARE(ReceiptVerifier::check(changed, m_ledger->publicKeys()), ReceiptVerifier::Result::Invalid);
    }
}

void TestDirectoryLedger::verificationNeedsTheRightKey()
{
    const QJsonObject receipt = invoke(u"SHOUT"_s, u"x"_s).toJson();
    QCOMPARE(ReceiptVerifier::check(receipt, {}), ReceiptVerifier::Result::NoKey);
    QTemporaryDir otherDir;
    auto other = SqlDirectoryStore::open(otherDir.filePath(u"o.db"_s));
    QVERIFY(other.ok());
    DirectoryLedger otherLedger(other.value(), DirectoryLedger::KeyPlacement::FileOnly);
    QVERIFY(otherLedger.publicKeyPem().ok());
    QCOMPARE(ReceiptVerifier::check(receipt, otherLedger.publicKeys()), ReceiptVerifier::Result::Invalid);
    // The exported public key alone is enough: no database, no keychain.
    QString error;
    const std::optional<PublicKey> exported = PublicKey::fromPem(m_ledger->publicKeyPem().value(), &error);
    QVERIFY2(exported, qPrintable(error));
    QCOMPARE(ReceiptVerifier::check(receipt, {*exported}), ReceiptVerifier::Result::Valid);
}

void TestDirectoryLedger::theKeyIsMadeOnceAndKeptBesideTheFile()
{
    invoke(u"SHOUT"_s, u"x"_s);
    const QString keyFile = m_store->location() + u".signing-key"_s;
    QVERIFY(QFile::exists(keyFile));
    QCOMPARE(QFile::permissions(keyFile)
                 & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
             QFileDevice::Permissions());
    QVERIFY(m_ledger->keyStorage().value().contains(keyFile));
    const QByteArray pem = m_ledger->publicKeyPem().value();
    DirectoryLedger again(m_store, DirectoryLedger::KeyPlacement::FileOnly);
    QCOMPARE(again.publicKeyPem().value(), pem);
    QCOMPARE(again.publicKeys().size(), 1);
    // The private half is not in the database file.
    QFile db(m_store->location());
    QVERIFY(db.open(QIODevice::ReadOnly));
    QVERIFY(!db.readAll().contains("PRIVATE KEY"));
}

void TestDirectoryLedger::oneAsynchronousUnlockAnswersEveryCaller()
{
    QObject context;
    int unlocked = 0;
    auto count = [&](const StoreError &error) {
        QVERIFY2(!error.isError(), qPrintable(error.message));
        ++unlocked;
    };
    m_ledger->unlockAsync(&context, count);
    m_ledger->unlockAsync(&context, count);
    auto gone = std::make_unique<QObject>();
    bool answeredTheGone = false;
    m_ledger->unlockAsync(gone.get(), [&](const StoreError &) { answeredTheGone = true; });
    gone.reset();
    Receipt receipt;
    receipt.invocationId = InvocationIds::newInvocationId();
    receipt.trace = InvocationIds::newTrace();
    receipt.key = u"SHOUT"_s;
    receipt.actor = u"owner:local"_s;
    receipt.runner = u"fn"_s;
    receipt.startedAt = IsoTime::nowUtc();
    receipt.status = Receipt::statusFor(false);
    receipt.inputFingerprint = Receipt::sha256Hex(u"in"_s);
    receipt.outputFingerprint = Receipt::sha256Hex(u"out"_s);
    receipt.contractFingerprint = ContractFingerprint::of(m_store->row(u"SHOUT"_s).value());
    std::optional<StoreResult<Receipt>> issued;
    m_ledger->issueAsync(receipt, [&](const StoreResult<Receipt> &result) { issued = result; });
    QCOMPARE(unlocked, 0);
    QTRY_VERIFY(issued.has_value());
    QCOMPARE(unlocked, 2);
    QVERIFY(!answeredTheGone);
    QVERIFY2(issued->ok(), qPrintable(issued->error().message));
    QCOMPARE(ReceiptVerifier::check(issued->value().toJson(), m_ledger->publicKeys()),
             ReceiptVerifier::Result::Valid);
    // One search made one key.
    QCOMPARE(m_ledger->publicKeys().size(), 1);
    // Once unlocked, a later caller is still answered later, never inside its call.
    m_ledger->unlockAsync(&context, count);
    QCOMPARE(unlocked, 2);
    QTRY_COMPARE(unlocked, 3);
}

// The public key, blocking (public-key) and not (the GUI's Export): the key the file holds,
// and for a key file that holds nothing, "cannot show the receipt key", not "cannot sign".
void TestDirectoryLedger::aPublicKeyThatCannotBeHadSaysItCannotBeShown()
{
    const QByteArray held = m_ledger->publicKeyPem().value();
    QObject context;
    std::optional<StoreResult<PublicKey>> shown;
    m_ledger->publicKeyAsync(&context, [&](const StoreResult<PublicKey> &key) { shown = key; });
    QTRY_VERIFY(shown.has_value());
    QVERIFY2(shown->ok(), qPrintable(shown->error().message));
    QCOMPARE(shown->value().pem(), held);

    const QString emptyFile = m_dir->filePath(u"empty.pem"_s);
    QFile empty(emptyFile);
    QVERIFY(empty.open(QIODevice::WriteOnly));
    empty.close();
    QVERIFY(empty.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    DirectoryLedger unheld(m_store, DirectoryLedger::KeyPlacement::FileOnly,
                           CapabilityGateRefusalCounter::kDefaultIntervalMs, emptyFile);
    const StoreResult<QByteArray> blocking = unheld.publicKeyPem();
    QVERIFY(!blocking.ok());
    QVERIFY2(
        blocking.error().message.startsWith(u"cannot show the receipt key: the receipt-signing key file "_s),
        qPrintable(blocking.error().message));
    DirectoryLedger unheldAsync(m_store, DirectoryLedger::KeyPlacement::FileOnly,
                                CapabilityGateRefusalCounter::kDefaultIntervalMs, emptyFile);
    shown.reset();
    unheldAsync.publicKeyAsync(&context, [&](const StoreResult<PublicKey> &key) { shown = key; });
    QTRY_VERIFY(shown.has_value());
    QVERIFY(!shown->ok());
    QCOMPARE(shown->error().message, blocking.error().message);
}

QTEST_GUILESS_MAIN(TestDirectoryLedger)
#include "tst_directoryledger.moc"
