#include "dispatch/call/invocationhandle.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/localdispatcher.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptchainhead.h"
#include "dispatch/receipts/receiptloganchor.h"
#include "dispatch/receipts/receiptlogaudit.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/receipts/signingkeyvault.h"
#include "dispatch/runners/fnrunner.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/dispatch/ledgertestrows.h"
#include "tests/support/rawsql.h"

#include <QFile>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

QStringList codesOf(const ReceiptLogAudit::Report &report)
{
    QStringList codes;
    for (const ReceiptLogAudit::Finding &finding : report.findings)
        codes.append(finding.code);
    return codes;
}

QString sqlText(const QByteArray &text)
{
    return u"'"_s + QString::fromUtf8(text).replace(u"'"_s, u"''"_s) + u"'"_s;
}

} // namespace

// Item 10 of issue 13: someone who can write the file (and drop its triggers) but does
// not hold the signing key can no longer delete or edit a receipt, or wipe the event log,
// without `log --verify` naming it; an anchor kept elsewhere catches a roll-back.
class TestReceiptLogAudit : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void anUntamperedLogVerifies();
    void tamperingIsNamed_data();
    void tamperingIsNamed();
    void aHeadSignedByAnotherKeyIsForged();
    void aNewKeyKeepsTheChainsTrusted_data();
    void aNewKeyKeepsTheChainsTrusted();
    void aNewKeyDoesNotVouchForAKeySomeoneListed();
    void anAnchorCatchesARollBack();
    void anAnchorCatchesAReplacedKey();
    void aTamperedAnchorIsInvalid();
    void anOldDirectoryMigratesClean();

private:
    // Two writers (two ledgers, as two processes), each issuing receipts.
    void issueFromTwoWriters();
    Receipt invoke(LocalDispatcher &dispatcher, const QString &body);
    void open();
    void close();
    ReceiptLogAudit::Report audit(const ReceiptLogAnchor *anchor = nullptr);
    QString path() const { return m_dir->filePath(u"d.db"_s); }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    std::unique_ptr<LocalDispatcher> m_dispatcher;
    QList<PublicKey> m_trusted;
};

void TestReceiptLogAudit::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    open();
    QVERIFY(!m_store->importRows({fnRow(u"SHOUT"_s, u"upper"_s)}).isError());
    const StoreResult<SigningKey> key = m_ledger->signingKey();
    QVERIFY(key.ok());
    m_trusted = {key.value().publicKey()};
}

void TestReceiptLogAudit::cleanup()
{
    close();
}

void TestReceiptLogAudit::open()
{
    auto opened = SqlDirectoryStore::open(path());
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
    m_ledger = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly);
    m_dispatcher = std::make_unique<LocalDispatcher>(m_store, nullptr, m_ledger);
    m_dispatcher->setRunner(u"fn"_s, std::make_unique<FnRunner>());
}

void TestReceiptLogAudit::close()
{
    m_dispatcher.reset();
    m_ledger.reset();
    m_store.reset();
}

Receipt TestReceiptLogAudit::invoke(LocalDispatcher &dispatcher, const QString &body)
{
    InvocationHandle *handle = dispatcher.invoke({u"SHOUT"_s, body, false, {}});
    if (!handle->isFinished())
        QSignalSpy(handle, &InvocationHandle::finished).wait(10000);
    const InvocationOutcome outcome = handle->outcome();
    delete handle;
    return outcome.receipt.value_or(Receipt());
}

void TestReceiptLogAudit::issueFromTwoWriters()
{
    auto second = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly);
    LocalDispatcher other(m_store, nullptr, second);
    other.setRunner(u"fn"_s, std::make_unique<FnRunner>());
    for (int i = 0; i < 3; ++i) {
        QVERIFY(!invoke(*m_dispatcher, u"a%1"_s.arg(i)).invocationId.isEmpty());
        QVERIFY(!invoke(other, u"b%1"_s.arg(i)).invocationId.isEmpty());
    }
}

ReceiptLogAudit::Report TestReceiptLogAudit::audit(const ReceiptLogAnchor *anchor)
{
    const StoreResult<ReceiptLogAudit::Report> report =
        ReceiptLogAudit::run(m_store->database(), m_trusted, anchor);
    if (!report.ok())
        qWarning("audit failed: %s", qPrintable(report.error().message));
    return report.ok() ? report.value() : ReceiptLogAudit::Report{};
}

void TestReceiptLogAudit::anUntamperedLogVerifies()
{
    issueFromTwoWriters();
    const ReceiptLogAudit::Report report = audit();
    QVERIFY2(report.intact(), qPrintable(codesOf(report).join(u", "_s)));
    QCOMPARE(report.receipts, 6);
    QCOMPARE(report.chains, 2);
    QCOMPARE(report.preChainReceipts, 0);
    QVERIFY(report.summary().startsWith(u"Event log intact"_s));
}

void TestReceiptLogAudit::tamperingIsNamed_data()
{
    QTest::addColumn<QStringList>("sql");
    QTest::addColumn<QString>("code");
    const QString dropReceiptDelete = u"DROP TRIGGER receipts_refuse_delete"_s;
    const QString dropLinkDelete = u"DROP TRIGGER receipt_chain_links_refuse_delete"_s;
    const QString dropEventDelete = u"DROP TRIGGER events_refuse_delete"_s;
    QTest::addRow("a receipt deleted")
        << QStringList{dropReceiptDelete, u"DELETE FROM receipts WHERE seq = 3"_s} << u"receipt_missing"_s;
    QTest::addRow("a receipt and its link deleted from the middle")
        << QStringList{dropReceiptDelete, dropLinkDelete, u"DELETE FROM receipts WHERE seq = 3"_s,
                       u"DELETE FROM receipt_chain_links WHERE receipt_seq = 3"_s}
        << u"receipt_missing"_s;
    QTest::addRow("the newest receipt and its link deleted")
        << QStringList{dropReceiptDelete, dropLinkDelete, u"DELETE FROM receipts WHERE seq = 6"_s,
                       u"DELETE FROM receipt_chain_links WHERE receipt_seq = 6"_s}
        << u"receipt_missing"_s;
    QTest::addRow("a receipt edited") << QStringList{
        u"DROP TRIGGER receipts_refuse_update"_s,
        u"UPDATE receipts SET receipt_json = replace(receipt_json, '\"cost_usd\":0', '\"cost_usd\":9') "
        "WHERE seq = 2"_s} << u"receipt_altered"_s;
    QTest::addRow("a receipt's filtered columns edited, its JSON left") << QStringList{
        u"DROP TRIGGER receipts_refuse_update"_s,
        u"UPDATE receipts SET key = 'EVIL', status = 'FAILED', actor = 'token:evil', duration_ms = 99999 "
        "WHERE seq = 2"_s} << u"receipt_altered"_s;
    QTest::addRow("a receipt added outside") << QStringList{
        u"INSERT INTO receipts (invocation_id, trace, key, parent, actor, runner, started_at, duration_ms, "
        "material, status, contract_fingerprint, receipt_json) SELECT 'inv_zzzzzzzzzz', trace, key, parent, "
        "actor, runner, started_at, duration_ms, material, status, contract_fingerprint, receipt_json "
        "FROM receipts WHERE seq = 1"_s} << u"receipt_unchained"_s;
    QTest::addRow("the event log wiped, events and chain head")
        << QStringList{dropEventDelete, u"DELETE FROM events"_s, u"DELETE FROM event_chain_head"_s}
        << u"event_log_wiped"_s;
    QTest::addRow("the event log wiped with SQLite's counter")
        << QStringList{dropEventDelete, u"DELETE FROM events"_s, u"DELETE FROM event_chain_head"_s,
                       u"DELETE FROM sqlite_sequence WHERE name = 'events'"_s}
        << u"event_log_wiped"_s;
    QTest::addRow("the newest events cut, head moved back")
        << QStringList{dropEventDelete, u"DELETE FROM events WHERE seq > 2"_s,
                       u"UPDATE event_chain_head SET seq = 2, hash = (SELECT hash FROM events WHERE seq = 2)"_s,
                       u"UPDATE sqlite_sequence SET seq = 2 WHERE name = 'events'"_s}
        << u"events_missing"_s;
    QTest::addRow("a head moved on") << QStringList{u"UPDATE receipt_chain_heads SET seq = seq + 1"_s}
                                     << u"receipt_chain_head_forged"_s;
    QTest::addRow("a head moved back to an earlier link")
        << QStringList{u"UPDATE receipt_chain_heads SET seq = 1, hash = (SELECT l.hash FROM "
                       u"receipt_chain_links l "
                       "WHERE l.writer = receipt_chain_heads.writer AND l.seq = 1)"_s}
        << u"receipt_chain_head_forged"_s;
    QTest::addRow("a head deleted") << QStringList{u"DELETE FROM receipt_chain_heads WHERE rowid = 1"_s}
                                    << u"receipt_chain_head_missing"_s;
    QTest::addRow("a whole chain removed")
        << QStringList{dropReceiptDelete, dropLinkDelete,
                       u"DELETE FROM receipts WHERE seq IN (SELECT receipt_seq FROM receipt_chain_links "
                       "WHERE writer = (SELECT MIN(writer) FROM receipt_chain_heads))"_s,
                       u"DELETE FROM receipt_chain_links WHERE writer = (SELECT MIN(writer) FROM receipt_chain_heads)"_s,
                       u"DELETE FROM receipt_chain_heads WHERE writer = (SELECT MIN(writer) FROM receipt_chain_heads)"_s}
        << u"receipt_chain_missing"_s;
    QTest::addRow("the chains' origin deleted")
        << QStringList{u"DELETE FROM receipt_chain_origin"_s} << u"receipt_chain_origin_missing"_s;
}

void TestReceiptLogAudit::tamperingIsNamed()
{
    QFETCH(QStringList, sql);
    QFETCH(QString, code);
    issueFromTwoWriters();
    QVERIFY(audit().intact());
    close();
    const QString failure = RawSql::exec(path(), sql);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    open();
    const ReceiptLogAudit::Report report = audit();
    QVERIFY(!report.intact());
    QVERIFY2(codesOf(report).contains(code), qPrintable(codesOf(report).join(u", "_s)));
    QVERIFY(report.toJson().value(u"intact"_s).isBool() && !report.toJson().value(u"intact"_s).toBool());
}

void TestReceiptLogAudit::aHeadSignedByAnotherKeyIsForged()
{
    issueFromTwoWriters();
    QSqlQuery read(m_store->database());
    QVERIFY(read.exec(
        u"SELECT h.writer, h.seq, h.events_seq, h.events_hash, h.signed_at, l.hash, n.receipt_seq "
        "FROM receipt_chain_heads h JOIN receipt_chain_links l ON l.writer = h.writer AND l.seq = h.seq - 1 "
        "JOIN receipt_chain_links n ON n.writer = h.writer AND n.seq = h.seq ORDER BY h.writer LIMIT 1"_s));
    QVERIFY(read.next());
    // The newest receipt of one chain cut, and its head signed again one link back with
    // the attacker's own key, whose public half goes into the file's list.
    ReceiptChainHead head{read.value(0).toString(),
                          read.value(1).toLongLong() - 1,
                          read.value(5).toString(),
                          read.value(2).toLongLong(),
                          read.value(3).toString(),
                          read.value(4).toString(),
                          QString()};
    const qint64 newest = read.value(6).toLongLong();
    read.finish();
    const SigningKey forger = SigningKey::generate();
    head.signWith(forger);
    close();
    const QString failure = RawSql::exec(
        path(),
        {u"DROP TRIGGER receipts_refuse_delete"_s, u"DROP TRIGGER receipt_chain_links_refuse_delete"_s,
         u"DELETE FROM receipts WHERE seq = %1"_s.arg(newest),
         u"DELETE FROM receipt_chain_links WHERE receipt_seq = %1"_s.arg(newest),
         u"UPDATE receipt_chain_heads SET seq = %1, hash = '%2', signature = '%3' WHERE writer = '%4'"_s
             .arg(head.seq)
             .arg(head.hash, head.signature, head.writer),
         u"INSERT INTO signing_keys (key_id, public_key_pem, created_at) VALUES (%1, %2, "
         "'2099-01-01T00:00:00.000Z')"_s.arg(sqlText(forger.publicKey().keyId().toUtf8()),
                                             sqlText(forger.publicKey().pem()))});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    open();
    const ReceiptLogAudit::Report report = audit();
    const QStringList codes = codesOf(report);
    // Listed, so it may be a second key of the directory's; linked to the key held here
    // by no signed succession, so it is not believed either way.
    QVERIFY2(codes == QStringList{u"receipt_chain_other_key"_s}, qPrintable(codes.join(u", "_s)));
    QVERIFY(report.findings.constFirst().message.contains(forger.publicKey().keyId()));
    // Why the check trusts the key it holds, not the file's list of public keys.
    const QList<PublicKey> listed = SigningKeyVault(m_store->database(), QString(), nullptr).publicKeys();
    QVERIFY(ReceiptLogAudit::run(m_store->database(), listed).value().intact());
    // A key the directory does not even list.
    const QString unlisted = RawSql::exec(path(), {u"DELETE FROM signing_keys WHERE key_id = %1"_s.arg(
                                                      sqlText(forger.publicKey().keyId().toUtf8()))});
    QVERIFY2(unlisted.isEmpty(), qPrintable(unlisted));
    QCOMPARE(codesOf(audit()), QStringList{u"receipt_chain_head_forged"_s});
}

void TestReceiptLogAudit::aNewKeyKeepsTheChainsTrusted_data()
{
    QTest::addColumn<bool>("keyLost");
    QTest::addRow("the old key held when the new one is made") << false;
    QTest::addRow("the old key lost") << true;
}

// `signing-key new`: the chains signed before stay verifiable with the new key; with the
// old one, the new chains verify only if the old key signed for the new.
void TestReceiptLogAudit::aNewKeyKeepsTheChainsTrusted()
{
    QFETCH(bool, keyLost);
    issueFromTwoWriters();
    const PublicKey old = m_trusted.constFirst();
    if (keyLost) {
        close();
        QVERIFY(QFile::remove(path() + u".signing-key"_s));
        open();
        QVERIFY(!m_ledger->signingKey().ok());
    }
    const StoreResult<SigningKeyVault::NewKey> made =
        m_ledger->startNewSigningKey(keyLost ? QStringList{old.keyId()} : QStringList());
    QVERIFY2(made.ok(), qPrintable(made.error().message));
    const StoreResult<PublicKey> next = made.value().unlocked.key.publicKey();
    QVERIFY(next.value().keyId() != old.keyId());
    issueFromTwoWriters();

    m_trusted = {next.value()};
    ReceiptLogAudit::Report report = audit();
    QVERIFY2(report.intact(), qPrintable(codesOf(report).join(u", "_s)));
    QCOMPARE(report.receipts, 12);

    m_trusted = {old};
    report = audit();
    if (!keyLost) {
        QVERIFY2(report.intact(), qPrintable(codesOf(report).join(u", "_s)));
        return;
    }
    const QStringList codes = codesOf(report);
    QVERIFY2(!codes.isEmpty() && codes.count(u"receipt_chain_other_key"_s) == codes.size(),
             qPrintable(codes.join(u", "_s)));
    QVERIFY(report.findings.constFirst().message.contains(next.value().keyId()));
}

// Someone who can write the file lists a key of their own and a chain it signed. The
// owner's next key must not take it on: it follows what the owner's key trusts.
void TestReceiptLogAudit::aNewKeyDoesNotVouchForAKeySomeoneListed()
{
    invoke(*m_dispatcher, u"owner"_s);
    const PublicKey owner = m_trusted.constFirst();
    close();
    const QString intruderKey = m_dir->filePath(u"intruder.pem"_s);
    // Their key is taken on only by a directory that lists none: they hide the owner's row
    // while they sign, then put it back.
    QString failure = RawSql::exec(
        path(), {u"CREATE TABLE kept AS SELECT * FROM signing_keys"_s, u"DELETE FROM signing_keys"_s});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    {
        auto store = SqlDirectoryStore::open(path()).value();
        auto intruder =
            std::make_shared<DirectoryLedger>(store, DirectoryLedger::KeyPlacement::FileOnly,
                                              CapabilityGateRefusalCounter::kDefaultIntervalMs, intruderKey);
        LocalDispatcher theirs(store, nullptr, intruder);
        theirs.setRunner(u"fn"_s, std::make_unique<FnRunner>());
        QVERIFY(!invoke(theirs, u"intruder"_s).invocationId.isEmpty());
    }
    failure = RawSql::exec(path(), {u"INSERT INTO signing_keys (key_id, public_key_pem, created_at) "
                                    "SELECT key_id, public_key_pem, created_at FROM kept"_s,
                                    u"DROP TABLE kept"_s});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    open();
    QCOMPARE(codesOf(audit()), QStringList{u"receipt_chain_other_key"_s});

    const StoreResult<SigningKeyVault::NewKey> made = m_ledger->startNewSigningKey();
    QVERIFY2(made.ok(), qPrintable(made.error().message));
    QCOMPARE(made.value().follows.size(), 1);
    QCOMPARE(made.value().follows.constFirst().keyId(), owner.keyId());
    QCOMPARE(made.value().leftOut.size(), 1);
    QVERIFY(made.value().leftOut.constFirst().keyId() != owner.keyId());
    invoke(*m_dispatcher, u"after"_s);
    // Neither the new key nor the owner's old one trusts the intruder's chain.
    for (const PublicKey &key : {made.value().unlocked.key.publicKey(), owner}) {
        m_trusted = {key};
        QCOMPARE(codesOf(audit()), QStringList{u"receipt_chain_other_key"_s});
    }
}

void TestReceiptLogAudit::anAnchorCatchesARollBack()
{
    invoke(*m_dispatcher, u"first"_s);
    close();
    const QString earlier = m_dir->filePath(u"earlier.db"_s);
    QVERIFY(QFile::copy(path(), earlier));
    open();
    issueFromTwoWriters();
    const StoreResult<ReceiptLogAnchor> anchor =
        ReceiptLogAnchor::make(m_store->database(), m_ledger->signingKey().value());
    QVERIFY(anchor.ok());
    QVERIFY(audit(&anchor.value()).intact());
    close();
    // The whole file put back as it was: every chain and head in it is genuine.
    QVERIFY(QFile::remove(path()));
    QVERIFY(QFile::copy(earlier, path()));
    open();
    QVERIFY2(audit().intact(), "a roll-back is out of the file's own reach");
    const QStringList codes = codesOf(audit(&anchor.value()));
    QVERIFY2(codes.contains(u"anchor_events_truncated"_s), qPrintable(codes.join(u", "_s)));
    QVERIFY2(codes.contains(u"anchor_receipts_truncated"_s), qPrintable(codes.join(u", "_s)));
}

void TestReceiptLogAudit::anAnchorCatchesAReplacedKey()
{
    issueFromTwoWriters();
    const StoreResult<ReceiptLogAnchor> anchor =
        ReceiptLogAnchor::make(m_store->database(), m_ledger->signingKey().value());
    QVERIFY(anchor.ok());
    // Whoever can write the key beside the file can re-sign everything with a key of
    // their own; the anchor still names the key it was made with.
    m_trusted = {SigningKey::generate().publicKey()};
    const QStringList codes = codesOf(audit(&anchor.value()));
    QVERIFY2(codes.contains(u"anchor_key_unknown"_s), qPrintable(codes.join(u", "_s)));
}

void TestReceiptLogAudit::aTamperedAnchorIsInvalid()
{
    issueFromTwoWriters();
    const StoreResult<ReceiptLogAnchor> made =
        ReceiptLogAnchor::make(m_store->database(), m_ledger->signingKey().value());
    QVERIFY(made.ok());
    QJsonObject json = made.value().toJson();
    QJsonObject events = json.value(u"events"_s).toObject();
    events.insert(u"seq"_s, 1);
    json.insert(u"events"_s, events);
    QString error;
    const std::optional<ReceiptLogAnchor> changed = ReceiptLogAnchor::fromJson(json, &error);
    QVERIFY2(changed, qPrintable(error));
    QVERIFY(codesOf(audit(&*changed)).contains(u"anchor_invalid"_s));
    const std::optional<ReceiptLogAnchor> same = ReceiptLogAnchor::fromJson(made.value().toJson(), &error);
    QVERIFY(same && audit(&*same).intact());
}

void TestReceiptLogAudit::anOldDirectoryMigratesClean()
{
    // A directory as Capdesk wrote it before migration 0190: receipts and no chains.
    close();
    const SigningKey key = SigningKey::generate();
    QStringList sql{u"DROP TRIGGER receipt_count_insert"_s,
                    u"DROP TRIGGER receipt_count_delete"_s,
                    u"DROP TABLE receipt_count"_s,
                    u"DROP TABLE receipt_chain_links"_s,
                    u"DROP TABLE receipt_chain_heads"_s,
                    u"DROP TABLE receipt_chain_origin"_s,
                    u"DROP INDEX receipts_by_status"_s,
                    u"DROP INDEX receipts_by_actor"_s,
                    u"DELETE FROM signing_keys"_s,
                    u"DROP TABLE receipt_archive_ranges"_s,
                    u"DROP TABLE receipt_archives"_s,
                    u"DROP TRIGGER receipts_refuse_delete"_s,
                    u"CREATE TRIGGER receipts_refuse_delete BEFORE DELETE ON receipts BEGIN "
                    "SELECT RAISE(ABORT, 'receipts are append-only'); END"_s};
    for (int i = 0; i < 3; ++i) {
        Receipt receipt;
        receipt.invocationId = u"inv_old000000%1"_s.arg(i);
        receipt.trace = u"t_0000000%1"_s.arg(i);
        receipt.key = u"SHOUT"_s;
        receipt.actor = u"owner:local"_s;
        receipt.runner = u"fn"_s;
        receipt.startedAt = u"2026-01-01T00:00:0%1.000Z"_s.arg(i);
        receipt.status = Receipt::statusFor(true);
        receipt.material = true;
        receipt.signature = QString::fromLatin1(key.sign(receipt.signedBytes()).toBase64());
        sql.append(u"INSERT INTO receipts (invocation_id, trace, key, actor, runner, started_at, "
                   u"duration_ms, material, "
                   "status, contract_fingerprint, receipt_json) VALUES ('%1', '%2', 'SHOUT', 'owner:local', "
                   "'fn', '%3', "
                   "0, 1, '%4', '', %5)"_s.arg(
                       receipt.invocationId, receipt.trace, receipt.startedAt, receipt.status,
                       sqlText(QJsonDocument(receipt.toJson()).toJson(QJsonDocument::Compact))));
    }
    sql.append(
        u"INSERT INTO signing_keys (key_id, public_key_pem, created_at) VALUES (%1, %2, '2026-01-01T00:00:00.000Z')"_s
            .arg(sqlText(key.publicKey().keyId().toUtf8()), sqlText(key.publicKey().pem())));
    sql.append(u"PRAGMA user_version = 186"_s);
    QVERIFY(QFile::remove(path() + u".signing-key"_s));
    QFile keyFile(path() + u".signing-key"_s);
    QVERIFY(keyFile.open(QIODevice::WriteOnly));
    keyFile.write(key.privatePem());
    keyFile.close();
    keyFile.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    const QString failure = RawSql::exec(path(), sql);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));

    open();
    m_trusted = {key.publicKey()};
    ReceiptLogAudit::Report report = audit();
    QVERIFY2(report.intact(), qPrintable(codesOf(report).join(u", "_s)));
    QCOMPARE(report.preChainReceipts, 3);
    QVERIFY(report.summary().contains(u"3 receipts from before the chains"_s));

    QVERIFY(!invoke(*m_dispatcher, u"new"_s).invocationId.isEmpty());
    report = audit();
    QVERIFY2(report.intact(), qPrintable(codesOf(report).join(u", "_s)));
    QCOMPARE(report.preChainReceipts, 0);
    QCOMPARE(report.receipts, 4);
    QCOMPARE(report.chains, 2);

    // Sealed, a pre-chain receipt is as protected as any other.
    close();
    const QString deleted = RawSql::exec(
        path(), {u"DROP TRIGGER receipts_refuse_delete"_s, u"DELETE FROM receipts WHERE seq = 2"_s});
    QVERIFY2(deleted.isEmpty(), qPrintable(deleted));
    open();
    QVERIFY(codesOf(audit()).contains(u"receipt_missing"_s));
}

QTEST_GUILESS_MAIN(TestReceiptLogAudit)
#include "tst_receiptlogaudit.moc"
