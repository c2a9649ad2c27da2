#include "dispatch/invoke/directoryledger.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptarchiver.h"
#include "dispatch/receipts/receiptlogaudit.h"
#include "dispatch/receipts/receiptsegmentfile.h"
#include "dispatch/receipts/receiptsummaryreader.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/rawsql.h"
#include "tests/support/storebackend.h"

#include <QFile>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

// A segment file's lines, and the file written back from them.
QList<QByteArray> linesOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> lines = file.readAll().split('\n');
    if (!lines.isEmpty() && lines.constLast().isEmpty())
        lines.removeLast();
    return lines;
}

void writeLines(const QString &path, const QList<QByteArray> &lines, bool finalNewline = true)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    file.write(lines.join('\n') + (finalNewline ? "\n" : ""));
}

QStringList codesOf(const ReceiptLogAudit::Report &report)
{
    QStringList codes;
    for (const ReceiptLogAudit::Finding &finding : report.findings)
        codes.append(finding.code);
    return codes;
}

} // namespace

// `receipts archive` on both engines: old receipts move into a signed segment file that
// verifies alone, the directory keeps the seal, the audit and confirm still account for
// what moved, and the only delete the database lets through is the one a seal covers.
class TestReceiptArchiver : public QObject
{
    Q_OBJECT

public:
    explicit TestReceiptArchiver(StoreBackend::Kind kind) : m_backend(kind) {}

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void oldReceiptsMoveOutAndTheLogStillVerifies();
    void aSecondArchiveTakesTheChainsOnFromTheFirst();
    void longChainsAreReadInPages();
    void nothingOldEnoughWritesNoFile();
    void confirmFindsAnArchivedReceiptInItsSegment();
    void aDeleteNoSealCoversIsRefused();
    void aForgedArchiveIsNamed();
    void aTamperedChainIsRefusedNotArchived();
    void aTamperedSegmentIsNamed_data();
    void aTamperedSegmentIsNamed();
    void anExistingFileIsNeverOverwritten();
    void theDirectoryKeepsItsReceiptCount();
    void aMigratedDirectoryCountsItsReceiptsOnce();

private:
    // Writers A and B each issue receipts started on 2026-01-01 … 2026-01-06.
    void issueSixDaysFromTwoWriters();
    Receipt receipt(int n, int day) const;
    ReceiptLogAudit::Report audit();
    qint64 count(const QString &sql) const;
    qint64 keptTotal() const;
    // SQL run as an outside tool would: `sqlite` on the file, `postgres` as the owner.
    QString raw(const QStringList &sqlite, const QStringList &postgres) const;
    QString segment(const QString &name = u"old.jsonl"_s) const { return m_dir->filePath(name); }

    StoreBackend m_backend;
    QString m_location;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    std::shared_ptr<DirectoryLedger> m_second;
    QList<PublicKey> m_trusted;
    QStringList m_ids; // A's then B's, day by day
};

void TestReceiptArchiver::initTestCase()
{
    QVERIFY(m_backend.start());
}

void TestReceiptArchiver::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_location = m_backend.freshLocation();
    auto opened = SqlDirectoryStore::open(m_location);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
    const QString keyFile = m_dir->filePath(u"key.pem"_s);
    m_ledger = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly,
                                                 CapabilityGateRefusalCounter::kDefaultIntervalMs, keyFile);
    m_second = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly,
                                                 CapabilityGateRefusalCounter::kDefaultIntervalMs, keyFile);
    const StoreResult<SigningKey> key = m_ledger->signingKey();
    QVERIFY2(key.ok(), qPrintable(key.error().message));
    m_trusted = {key.value().publicKey()};
    m_ids.clear();
}

void TestReceiptArchiver::cleanup()
{
    m_second.reset();
    m_ledger.reset();
    m_store.reset();
}

Receipt TestReceiptArchiver::receipt(int n, int day) const
{
    Receipt r;
    r.invocationId = u"inv_%1"_s.arg(n, 10, 10, QLatin1Char('0'));
    r.trace = u"t_%1"_s.arg(n, 8, 10, QLatin1Char('0'));
    r.key = u"SHOUT"_s;
    r.actor = u"owner:local"_s;
    r.runner = u"fn"_s;
    r.startedAt = u"2026-01-%1T12:00:00.000Z"_s.arg(day, 2, 10, QLatin1Char('0'));
    r.durationMs = 3;
    r.material = true;
    r.status = Receipt::statusFor(true);
    r.inputFingerprint = Receipt::sha256Hex(u"in %1"_s.arg(n));
    r.outputFingerprint = Receipt::sha256Hex(u"out %1"_s.arg(n));
    r.contractFingerprint = Receipt::sha256Hex(u"SHOUT"_s);
    return r;
}

void TestReceiptArchiver::issueSixDaysFromTwoWriters()
{
    for (int day = 1; day <= 6; ++day) {
        for (DirectoryLedger *ledger : {m_ledger.get(), m_second.get()}) {
            const Receipt made = receipt(m_ids.size() + 1, day);
            const StoreResult<Receipt> issued = ledger->issue(made);
            QVERIFY2(issued.ok(), qPrintable(issued.error().message));
            m_ids.append(made.invocationId);
        }
    }
}

ReceiptLogAudit::Report TestReceiptArchiver::audit()
{
    const StoreResult<ReceiptLogAudit::Report> report = ReceiptLogAudit::run(m_store->database(), m_trusted);
    if (!report.ok())
        qWarning("audit failed: %s", qPrintable(report.error().message));
    return report.ok() ? report.value() : ReceiptLogAudit::Report{};
}

qint64 TestReceiptArchiver::count(const QString &sql) const
{
    QSqlQuery query(m_store->database());
    if (!query.exec(sql) || !query.next())
        qFatal("bad test SQL: %s", qPrintable(sql));
    return query.value(0).toLongLong();
}

// What the Receipts dock reads as the directory's total.
qint64 TestReceiptArchiver::keptTotal() const
{
    const StoreResult<ReceiptSummaryReader::Total> total = ReceiptSummaryReader(m_store).total();
    if (!total.ok())
        qWarning("total failed: %s", qPrintable(total.error().message));
    return total.ok() ? total.value().count : -1;
}

QString TestReceiptArchiver::raw(const QStringList &sqlite, const QStringList &postgres) const
{
    if (m_backend.kind() == StoreBackend::Kind::Sqlite)
        return RawSql::exec(m_location, sqlite);
    const QString database = QUrl(m_location).path().mid(1);
    return m_backend.postgres()->exec(database, postgres.join(u";\n"_s));
}

void TestReceiptArchiver::oldReceiptsMoveOutAndTheLogStillVerifies()
{
    issueSixDaysFromTwoWriters();
    const StoreResult<ReceiptArchiver::Outcome> archived =
        m_ledger->archiveReceipts(u"2026-01-04T00:00:00.000Z"_s, segment());
    QVERIFY2(archived.ok(), qPrintable(archived.error().message));
    QVERIFY(archived.value().seal);
    const ReceiptSegmentSeal &seal = *archived.value().seal;
    QCOMPARE(seal.receiptCount, 6);
    QCOMPARE(seal.ranges.size(), 2);
    for (const ReceiptSegmentSeal::Range &range : seal.ranges) {
        QCOMPARE(range.fromSeq, 1);
        QCOMPARE(range.throughSeq, 3);
    }
    QCOMPARE(archived.value().archiveId, 1);

    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts"_s), 6);
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipt_chain_links"_s), 6);
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts WHERE started_at < '2026-01-04'"_s), 0);
    QCOMPARE(count(u"SELECT COUNT(*) FROM events WHERE kind = 'RECEIPTS_ARCHIVED'"_s), 1);

    const ReceiptSegmentFile::Check check = ReceiptSegmentFile::verify(segment(), m_trusted, m_ids.first());
    QVERIFY2(check.ok(), qPrintable(check.message));
    QCOMPARE(check.receipts, 6);
    QVERIFY(check.found);
    QCOMPARE(check.found->value(u"invocation_id"_s).toString(), m_ids.first());
    QCOMPARE(check.seal->toJson(), seal.toJson());

    const ReceiptLogAudit::Report report = audit();
    QVERIFY2(report.intact(), qPrintable(report.summary()));
    QCOMPARE(report.archivedReceipts, 6);
    QCOMPARE(report.archives, 1);
    QCOMPARE(report.receipts, 6);
    QVERIFY(report.summary().contains(u"6 receipts archived"_s));

    // Writing goes on after the archive, on both chains, and still verifies.
    int n = 100;
    for (DirectoryLedger *ledger : {m_ledger.get(), m_second.get()})
        QVERIFY(ledger->issue(receipt(++n, 7)).ok());
    QVERIFY2(audit().intact(), qPrintable(audit().summary()));
}

void TestReceiptArchiver::aSecondArchiveTakesTheChainsOnFromTheFirst()
{
    issueSixDaysFromTwoWriters();
    QVERIFY(m_ledger->archiveReceipts(u"2026-01-03T00:00:00.000Z"_s, segment(u"1.jsonl"_s)).ok());
    const StoreResult<ReceiptArchiver::Outcome> second =
        m_ledger->archiveReceipts(u"2026-01-05T00:00:00.000Z"_s, segment(u"2.jsonl"_s));
    QVERIFY2(second.ok(), qPrintable(second.error().message));
    QCOMPARE(second.value().archiveId, 2);
    QCOMPARE(second.value().seal->receiptCount, 4);
    for (const ReceiptSegmentSeal::Range &range : second.value().seal->ranges) {
        QCOMPARE(range.fromSeq, 3);
        QCOMPARE(range.throughSeq, 4);
    }
    QVERIFY(ReceiptSegmentFile::verify(segment(u"1.jsonl"_s), m_trusted).ok());
    QVERIFY(ReceiptSegmentFile::verify(segment(u"2.jsonl"_s), m_trusted).ok());
    const ReceiptLogAudit::Report report = audit();
    QVERIFY2(report.intact(), qPrintable(report.summary()));
    QCOMPARE(report.archivedReceipts, 8);
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts"_s), 4);

    // Everything, the newest receipts included: the chains are left with only their heads.
    QVERIFY(m_ledger->archiveReceipts(u"2026-02-01T00:00:00.000Z"_s, segment(u"3.jsonl"_s)).ok());
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts"_s), 0);
    QVERIFY2(audit().intact(), qPrintable(audit().summary()));
    QVERIFY(m_second->issue(receipt(200, 8)).ok());
    QVERIFY2(audit().intact(), qPrintable(audit().summary()));
}

void TestReceiptArchiver::longChainsAreReadInPages()
{
    issueSixDaysFromTwoWriters();
    // Pages of two links: each chain's stretch of five is read in three queries.
    const StoreResult<SigningKey> key = m_ledger->signingKey();
    QVERIFY(key.ok());
    ReceiptArchiver archiver(m_store->database(), key.value(), 2);
    const StoreResult<ReceiptArchiver::Outcome> archived =
        archiver.archive(u"2026-01-06T00:00:00.000Z"_s, segment());
    QVERIFY2(archived.ok(), qPrintable(archived.error().message));
    QCOMPARE(archived.value().seal->receiptCount, 10);
    const ReceiptSegmentFile::Check check = ReceiptSegmentFile::verify(segment(), m_trusted, m_ids.at(8));
    QVERIFY2(check.ok(), qPrintable(check.message));
    QVERIFY(check.found);
    QVERIFY2(audit().intact(), qPrintable(audit().summary()));
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts"_s), 2);
}

void TestReceiptArchiver::nothingOldEnoughWritesNoFile()
{
    issueSixDaysFromTwoWriters();
    const StoreResult<ReceiptArchiver::Outcome> archived =
        m_ledger->archiveReceipts(u"2026-01-01T00:00:00.000Z"_s, segment());
    QVERIFY(archived.ok());
    QVERIFY(!archived.value().seal);
    QVERIFY(!QFile::exists(segment()));
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts"_s), 12);
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipt_archives"_s), 0);
}

void TestReceiptArchiver::confirmFindsAnArchivedReceiptInItsSegment()
{
    issueSixDaysFromTwoWriters();
    QVERIFY(m_ledger->archiveReceipts(u"2026-01-04T00:00:00.000Z"_s, segment()).ok());
    const QString archivedId = m_ids.at(1); // B's first

    const QJsonObject unknown = m_ledger->confirm(archivedId);
    QCOMPARE(unknown.value(u"status"_s).toString(), u"UNKNOWN_INVOCATION"_s);
    QCOMPARE(unknown.value(u"archived_before"_s).toString(), u"2026-01-04T00:00:00.000Z"_s);

    const QJsonObject found = m_ledger->confirmInSegment(archivedId, segment());
    QVERIFY2(found.value(u"confirmed"_s).toBool(), QJsonDocument(found).toJson().constData());
    QCOMPARE(found.value(u"status"_s).toString(), Receipt::provenMaterial);
    QCOMPARE(found.value(u"archive"_s).toObject().value(u"archive_id"_s).toInteger(), 1);
    QCOMPARE(found.value(u"receipt"_s).toObject().value(u"invocation_id"_s).toString(), archivedId);

    // A receipt still in the directory is not in the segment.
    const QJsonObject notThere = m_ledger->confirmInSegment(m_ids.last(), segment());
    QCOMPARE(notThere.value(u"confirmed"_s).toBool(), false);
    QCOMPARE(notThere.value(u"status"_s).toString(), u"UNKNOWN_INVOCATION"_s);
    QVERIFY(!notThere.contains(u"reason"_s));

    // A segment that verifies but that this directory never recorded proves nothing here.
    auto other = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY(other.ok());
    DirectoryLedger otherLedger(other.value(), DirectoryLedger::KeyPlacement::FileOnly,
                                CapabilityGateRefusalCounter::kDefaultIntervalMs,
                                m_dir->filePath(u"key.pem"_s));
    QVERIFY(otherLedger.signingKey().ok()); // the same key, so the file verifies there too
    const QJsonObject foreign = otherLedger.confirmInSegment(archivedId, segment());
    QCOMPARE(foreign.value(u"confirmed"_s).toBool(), false);
    QCOMPARE(foreign.value(u"reason"_s).toString(), u"segment_not_recorded"_s);
}

void TestReceiptArchiver::aDeleteNoSealCoversIsRefused()
{
    issueSixDaysFromTwoWriters();
    QVERIFY(m_ledger->archiveReceipts(u"2026-01-04T00:00:00.000Z"_s, segment()).ok());
    const qint64 kept = count(u"SELECT MIN(seq) FROM receipts"_s);
    const QString deleteReceipt = u"DELETE FROM receipts WHERE seq = %1"_s.arg(kept);
    QVERIFY(raw({deleteReceipt}, {deleteReceipt}).contains(u"append-only"_s));
    const QString deleteLink = u"DELETE FROM receipt_chain_links WHERE receipt_seq = %1"_s.arg(kept);
    QVERIFY(raw({deleteLink}, {deleteLink}).contains(u"append-only"_s));
    const QString dropArchive = u"DELETE FROM receipt_archives"_s;
    QVERIFY(raw({dropArchive}, {dropArchive}).contains(u"append-only"_s));
    const QString moveRange = u"UPDATE receipt_archive_ranges SET through_seq = 5"_s;
    QVERIFY(raw({moveRange}, {moveRange}).contains(u"append-only"_s));
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts"_s), 6);
    QVERIFY(audit().intact());
}

void TestReceiptArchiver::aForgedArchiveIsNamed()
{
    issueSixDaysFromTwoWriters();
    QVERIFY(m_ledger->archiveReceipts(u"2026-01-04T00:00:00.000Z"_s, segment()).ok());
    // Someone without the key records a range past the real one, which the trigger then
    // lets them delete through.
    QSqlQuery seal(m_store->database());
    QVERIFY(seal.exec(u"SELECT seal_json, signature FROM receipt_archives"_s) && seal.next());
    QString sealJson = seal.value(0).toString();
    const QString signature = seal.value(1).toString();
    seal.finish(); // SQLite: no read snapshot left open across the raw writes below
    sealJson.replace(u"\"receipt_count\":6"_s, u"\"receipt_count\":8"_s);
    const QString forge =
        u"INSERT INTO receipt_archives (id, made_at, started_before, receipt_count, seal_json, signature) "
        "VALUES (2, 'x', '2026-01-05T00:00:00.000Z', 8, '%1', '%2')"_s.arg(sealJson, signature);
    const QString range =
        u"INSERT INTO receipt_archive_ranges (archive_id, writer, from_seq, through_seq, "
        "through_hash) SELECT 2, writer, 4, 4, hash FROM receipt_chain_links WHERE seq = 4"_s;
    const QString removeReceipts = u"DELETE FROM receipts WHERE seq IN (SELECT receipt_seq FROM "
                                   "receipt_chain_links WHERE seq = 4)"_s;
    const QString removeLinks = u"DELETE FROM receipt_chain_links WHERE seq = 4"_s;
    const QStringList statements{forge, range, removeReceipts, removeLinks};
    QCOMPARE(raw(statements, statements), QString());
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts"_s), 4);
    const QStringList codes = codesOf(audit());
    QVERIFY2(codes.contains(u"receipt_archive_forged"_s), qPrintable(codes.join(u", "_s)));
}

void TestReceiptArchiver::aTamperedChainIsRefusedNotArchived()
{
    issueSixDaysFromTwoWriters();
    const QString edit = u"UPDATE receipts SET receipt_json = replace(receipt_json, '\"duration_ms\":3', "
                         "'\"duration_ms\":4') WHERE seq = (SELECT MIN(seq) FROM receipts)"_s;
    QCOMPARE(raw({u"DROP TRIGGER receipts_refuse_update"_s, edit},
                 {u"ALTER TABLE receipts DISABLE TRIGGER USER"_s, edit}),
             QString());
    const StoreResult<ReceiptArchiver::Outcome> archived =
        m_ledger->archiveReceipts(u"2026-01-04T00:00:00.000Z"_s, segment());
    QVERIFY(!archived.ok());
    QCOMPARE(archived.error().kind, StoreError::Kind::Conflict);
    QVERIFY2(archived.error().message.contains(u"altered"_s), qPrintable(archived.error().message));
    QVERIFY(!QFile::exists(segment()));
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts"_s), 12);
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipt_archives"_s), 0);
}

void TestReceiptArchiver::aTamperedSegmentIsNamed_data()
{
    QTest::addColumn<QString>("defect");
    QTest::addColumn<QString>("code");
    QTest::newRow("a receipt edited") << u"edit"_s << u"segment_altered"_s;
    QTest::newRow("a receipt line removed") << u"drop"_s << u"segment_chain_broken"_s;
    QTest::newRow("the last chain's tail removed, links intact") << u"tail"_s << u"segment_altered"_s;
    QTest::newRow("the seal cut off") << u"noseal"_s << u"segment_truncated"_s;
    QTest::newRow("the last line without its newline") << u"cut"_s << u"segment_truncated"_s;
    QTest::newRow("the seal's count raised") << u"count"_s << u"segment_seal_invalid"_s;
    QTest::newRow("no header") << u"header"_s << u"segment_malformed"_s;
    QTest::newRow("a line of 9 MiB") << u"huge"_s << u"segment_malformed"_s;
    QTest::newRow("checked against another key") << u"key"_s << u"segment_key_unknown"_s;
    QTest::newRow("no file") << u"missing"_s << u"segment_unreadable"_s;
}

void TestReceiptArchiver::aTamperedSegmentIsNamed()
{
    QFETCH(QString, defect);
    QFETCH(QString, code);
    if (m_backend.kind() == StoreBackend::Kind::Postgres)
        QSKIP("the file is the same on both engines; checked on SQLite");
    issueSixDaysFromTwoWriters();
    QVERIFY(m_ledger->archiveReceipts(u"2026-01-04T00:00:00.000Z"_s, segment()).ok());
    QList<QByteArray> lines = linesOf(segment());
    QCOMPARE(lines.size(), 8); // header, 6 receipts, seal
    QList<PublicKey> keys = m_trusted;
    bool newline = true;
    if (defect == "edit"_L1)
        lines[2].replace("\\\"duration_ms\\\":3", "\\\"duration_ms\\\":4");
    else if (defect == "drop"_L1)
        lines.removeAt(2);
    else if (defect == "tail"_L1)
        lines.removeAt(6);
    else if (defect == "noseal"_L1)
        lines.removeLast();
    else if (defect == "cut"_L1)
        newline = false;
    else if (defect == "count"_L1)
        lines.last().replace("\"receipt_count\":6", "\"receipt_count\":7");
    else if (defect == "header"_L1)
        lines.removeFirst();
    else if (defect == "huge"_L1)
        lines.insert(2, QByteArray(9 * 1024 * 1024, 'x'));
    else if (defect == "key"_L1)
        keys = {SigningKey::generate().publicKey()};
    if (defect == "missing"_L1)
        QVERIFY(QFile::remove(segment()));
    else
        writeLines(segment(), lines, newline);
    const ReceiptSegmentFile::Check check = ReceiptSegmentFile::verify(segment(), keys);
    QCOMPARE(check.code, code);
    QVERIFY(!check.message.isEmpty());
}

void TestReceiptArchiver::anExistingFileIsNeverOverwritten()
{
    issueSixDaysFromTwoWriters();
    {
        QFile existing(segment());
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("keep me\n");
    }
    const StoreResult<ReceiptArchiver::Outcome> archived =
        m_ledger->archiveReceipts(u"2026-01-04T00:00:00.000Z"_s, segment());
    QVERIFY(!archived.ok());
    QVERIFY(archived.error().message.contains(u"never overwrites"_s));
    QCOMPARE(linesOf(segment()), QList<QByteArray>{"keep me"});
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts"_s), 12);
}

// The triggers of migration 0193 keep the count through every write and the one delete a
// receipt gets; the dock reads it rather than scanning the log.
void TestReceiptArchiver::theDirectoryKeepsItsReceiptCount()
{
    issueSixDaysFromTwoWriters();
    {
        // Another connection, as a second server's.
        auto other = SqlDirectoryStore::open(m_location);
        QVERIFY2(other.ok(), qPrintable(other.error().message));
        DirectoryLedger third(other.value(), DirectoryLedger::KeyPlacement::FileOnly,
                              CapabilityGateRefusalCounter::kDefaultIntervalMs,
                              m_dir->filePath(u"key.pem"_s));
        for (int n = 0; n < 3; ++n)
            QVERIFY(third.issue(receipt(100 + n, 5)).ok());
    }
    QCOMPARE(keptTotal(), 15);
    QCOMPARE(ReceiptSummaryReader(m_store).total().value().archivedBefore, QString());
    QVERIFY(m_ledger->archiveReceipts(u"2026-01-04T00:00:00.000Z"_s, segment()).ok());
    QCOMPARE(count(u"SELECT COUNT(*) FROM receipts"_s), 9);
    QCOMPARE(keptTotal(), 9);
    // Read with the count, so the dock sees another process's archive on its next look.
    QCOMPARE(ReceiptSummaryReader(m_store).total().value().archivedBefore, u"2026-01-04T00:00:00.000Z"_s);

    // What is read is the kept count, not a count of the rows.
    QCOMPARE(raw({u"UPDATE receipt_count SET receipts = receipts + 1000"_s},
                 {u"UPDATE receipt_count SET receipts = receipts + 1000"_s}),
             QString());
    QCOMPARE(keptTotal(), 1009);
    // Without it, as in a file an outside tool has edited, the rows are counted.
    QCOMPARE(raw({u"DELETE FROM receipt_count"_s}, {u"DELETE FROM receipt_count"_s}), QString());
    QCOMPARE(keptTotal(), 9);
    QVERIFY(m_ledger->issue(receipt(200, 6)).ok());
    QCOMPARE(keptTotal(), 10);
}

// A directory that held receipts before migration 0193 starts its count from them.
void TestReceiptArchiver::aMigratedDirectoryCountsItsReceiptsOnce()
{
    issueSixDaysFromTwoWriters();
    const QStringList undo = {u"DROP TRIGGER receipt_count_insert ON receipts"_s,
                              u"DROP TRIGGER receipt_count_delete ON receipts"_s,
                              u"DROP FUNCTION capdesk_count_receipts()"_s, u"DROP TABLE receipt_count"_s,
                              u"UPDATE schema_migrations SET version = 192"_s};
    m_second.reset();
    m_ledger.reset();
    m_store.reset();
    QCOMPARE(raw({u"DROP TRIGGER receipt_count_insert"_s, u"DROP TRIGGER receipt_count_delete"_s,
                  u"DROP TABLE receipt_count"_s, u"PRAGMA user_version = 192"_s},
                 undo),
             QString());
    auto reopened = SqlDirectoryStore::open(m_location);
    QVERIFY2(reopened.ok(), qPrintable(reopened.error().message));
    m_store = reopened.value();
    QCOMPARE(count(u"SELECT receipts FROM receipt_count WHERE id = 1"_s), 12);
    QCOMPARE(keptTotal(), 12);
}

CAPDESK_TEST_ON_BOTH_BACKENDS(TestReceiptArchiver)

#include "tst_receiptarchiver.moc"
