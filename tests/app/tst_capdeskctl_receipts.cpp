#include "tests/app/ctltestsupport.h"
#include "tests/support/rawsql.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace CtlTestSupport;

namespace {

// How a malformed anchor file is made from a genuine one.
enum class AnchorDefect {
    Empty,
    NotJson,
    Truncated,
    NotAnObject,
    WrongType,
    MissingFields,
    BadSeq,
    BadSignatureBase64,
    ShortSignature,
    BadPublicKey,
    Huge
};

} // namespace

Q_DECLARE_METATYPE(AnchorDefect)

// capdeskctl as a script or an owner's CI calls it (real process, real files, the exit
// codes of SPEC §11): receipts, confirm, verify-receipt, and the event log with its
// check and anchors.
class TestCapdeskctlReceipts : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void receiptsConfirmAndVerifyOffline();
    void aNamedKeyFileHoldingNothingIsRefusedOnceTheDirectorySigns();
    void aNewSigningKeyTakesOverFromALostOne();
    void logRecordsMutationsAndVerifies();
    void logVerifyNamesTamperingAndChecksAnAnchor();
    void logVerifyNamesAWipeBehindAnAnchor();
    void logVerifyNamesAMalformedAnchor_data();
    void logVerifyNamesAMalformedAnchor();
    void logVerifySaysWhyNoKeyChecksTheHeads_data();
    void logVerifySaysWhyNoKeyChecksTheHeads();
    void confirmRefusesARowHoldingAnotherReceipt();
    void confirmNamesWhyASignatureFails_data();
    void confirmNamesWhyASignatureFails();
    void archiveMovesOldReceiptsOutAndEveryCheckAccountsForThem();
    void archiveRefusesWhatItCannotDo_data();
    void archiveRefusesWhatItCannotDo();

private:
    QString db() const { return m_dir->filePath(QStringLiteral("ctl.db")); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCapdeskctlReceipts::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

void TestCapdeskctlReceipts::receiptsConfirmAndVerifyOffline()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const Run run = ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, db()});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject proof = run.json().value(u"proof"_s).toObject();
    QCOMPARE(proof.value(u"ok"_s).toBool(), true);
    const QString id = proof.value(u"invocation_id"_s).toString();
    QCOMPARE(proof.value(u"receipt"_s).toObject().value(u"invocation_id"_s).toString(), id);

    const Run listed = ctl({u"receipts"_s, u"--key"_s, u"BASE64_ENCODE"_s, u"--db"_s, db()});
    QCOMPARE(listed.exitCode, 0);
    QCOMPARE(listed.json().value(u"receipts"_s).toArray().size(), 1);
    QCOMPARE(ctl({u"receipts"_s, u"--key"_s, u"NOW"_s, u"--db"_s, db()})
                 .json()
                 .value(u"receipts"_s)
                 .toArray()
                 .size(),
             0);

    // The row goes; its receipt stays and still confirms.
    QCOMPARE(ctl({u"delete"_s, u"BASE64_ENCODE"_s, u"--db"_s, db()}).exitCode, 0);
    const Run confirmed = ctl({u"confirm"_s, id, u"--db"_s, db()});
    QCOMPARE(confirmed.exitCode, 0);
    QCOMPARE(confirmed.json().value(u"confirmed"_s).toBool(), true);
    QCOMPARE(confirmed.json().value(u"status"_s).toString(), u"PROVEN_MATERIAL_RESULT"_s);
    const Run unknown = ctl({u"confirm"_s, u"inv_zzzzzzzzzz"_s, u"--db"_s, db()});
    QCOMPARE(unknown.exitCode, 3);
    QCOMPARE(unknown.json().value(u"status"_s).toString(), u"UNKNOWN_INVOCATION"_s);

    // Offline: the saved response and the exported public key, no directory.
    const QString responseFile = m_dir->filePath(u"response.json"_s);
    const QString keyFile = m_dir->filePath(u"key.pem"_s);
    QFile response(responseFile);
    QVERIFY(response.open(QIODevice::WriteOnly));
    response.write(run.out);
    response.close();
    QCOMPARE(ctl({u"public-key"_s, u"--out"_s, keyFile, u"--db"_s, db()}).exitCode, 0);
    const QString elsewhere = m_dir->filePath(u"never-created.db"_s);
    const Run valid =
        ctl({u"verify-receipt"_s, responseFile, u"--public-key"_s, keyFile, u"--db"_s, elsewhere});
    QCOMPARE(valid.exitCode, 0);
    QCOMPARE(valid.json().value(u"signature"_s).toString(), u"valid"_s);
    QVERIFY(!QFile::exists(elsewhere));

    QByteArray tamperedText = run.out;
    tamperedText.replace("\"material\": true", "\"material\": false");
    QVERIFY(tamperedText != run.out);
    QVERIFY(response.open(QIODevice::WriteOnly));
    response.write(tamperedText);
    response.close();
    const Run tampered = ctl({u"verify-receipt"_s, responseFile, u"--public-key"_s, keyFile});
    QCOMPARE(tampered.exitCode, 1);
    QCOMPARE(tampered.json().value(u"signature"_s).toString(), u"invalid"_s);
}

// `--signing-key typo.pem` once signed with a second key made there, and `log --verify`
// failed from then on; now the slip is named, and nothing is made or signed.
void TestCapdeskctlReceipts::aNamedKeyFileHoldingNothingIsRefusedOnceTheDirectorySigns()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const QString good = m_dir->filePath(u"good.pem"_s);
    const QString typo = m_dir->filePath(u"typo.pem"_s);
    QCOMPARE(ctl({u"invoke"_s, u"NOW"_s, u"--db"_s, db(), u"--signing-key"_s, good}).exitCode, 0);
    QVERIFY(QFile::exists(good));
    const auto receiptCount = [this] {
        return ctl({u"receipts"_s, u"--db"_s, db()}).json().value(u"receipts"_s).toArray().size();
    };
    const qsizetype receiptsBefore = receiptCount();

    const Run invoked = ctl({u"invoke"_s, u"NOW"_s, u"--db"_s, db(), u"--signing-key"_s, typo});
    QCOMPARE(invoked.exitCode, 4);
    QCOMPARE(invoked.json().value(u"ran"_s), QJsonValue(false));
    QVERIFY2(
        invoked.err.contains("refused, nothing ran: cannot sign receipts: no key file at " + typo.toUtf8()),
        invoked.err.constData());
    QVERIFY2(invoked.err.contains("already signs with key"), invoked.err.constData());
    QVERIFY(!QFile::exists(typo));
    QCOMPARE(receiptCount(), receiptsBefore);

    // A server checks its key file before it listens.
    const ProcessRun::Result served = ctlWithKey(
        {u"serve"_s, u"--db"_s, db(), u"--signing-key"_s, typo, u"--listen"_s, u"127.0.0.1:0"_s}, kServedKey);
    QCOMPARE(served.exitCode, 1);
    QVERIFY2(served.err.contains("no key file at " + typo.toUtf8()), served.err.constData());
    QVERIFY(served.finished);
    QVERIFY(!QFile::exists(typo));

    const Run verified = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db(), u"--signing-key"_s, good});
    QCOMPARE(verified.exitCode, 0);
    QCOMPARE(verified.json().value(u"intact"_s).toBool(), true);
}

// `signing-key new`: a directory whose key is not here signs again, and every key that
// signed it stays verifiable from the newest.
void TestCapdeskctlReceipts::aNewSigningKeyTakesOverFromALostOne()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const QString first = m_dir->filePath(u"first.pem"_s);
    const QString here = m_dir->filePath(u"here.pem"_s); // on a machine without first.pem
    QCOMPARE(ctl({u"invoke"_s, u"NOW"_s, u"--db"_s, db(), u"--signing-key"_s, first}).exitCode, 0);
    const QString firstId = ctl({u"public-key"_s, u"--out"_s, m_dir->filePath(u"first.pub"_s), u"--db"_s,
                                 db(), u"--signing-key"_s, first})
                                .json()
                                .value(u"key_id"_s)
                                .toString();
    QVERIFY(!firstId.isEmpty());

    const Run refused = ctl({u"invoke"_s, u"NOW"_s, u"--db"_s, db(), u"--signing-key"_s, here});
    QCOMPARE(refused.exitCode, 4);
    QVERIFY2(refused.err.contains("capdeskctl signing-key new --db " + db().toUtf8() + " --signing-key "
                                  + here.toUtf8()),
             refused.err.constData());

    // Without the key here, the owner names the key the new one vouches for.
    const Run unnamed = ctl({u"signing-key"_s, u"new"_s, u"--db"_s, db(), u"--signing-key"_s, here});
    QCOMPARE(unnamed.exitCode, 1);
    QVERIFY2(unnamed.err.contains("--follow ID") && unnamed.err.contains(firstId.toUtf8()),
             unnamed.err.constData());
    QVERIFY(!QFile::exists(here));
    const Run started =
        ctl({u"signing-key"_s, u"new"_s, u"--follow"_s, firstId, u"--db"_s, db(), u"--signing-key"_s, here});
    QCOMPARE(started.exitCode, 0);
    const QString secondId = started.json().value(u"key_id"_s).toString();
    QVERIFY(!secondId.isEmpty() && secondId != firstId);
    QCOMPARE(started.json().value(u"follows"_s).toArray(), QJsonArray{firstId});
    QCOMPARE(started.json().value(u"vouched_by"_s), QJsonValue(QJsonValue::Null));
    QVERIFY2(started.err.contains("no key held here could sign for it"), started.err.constData());
    QCOMPARE(ctl({u"invoke"_s, u"NOW"_s, u"--db"_s, db(), u"--signing-key"_s, here}).exitCode, 0);

    // The new key vouches for the old; the old one, lost when the new was made, could not.
    const Run fromHere = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db(), u"--signing-key"_s, here});
    QCOMPARE(fromHere.exitCode, 0);
    const Run fromFirst = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db(), u"--signing-key"_s, first});
    QCOMPARE(fromFirst.exitCode, 1);
    QVERIFY2(fromFirst.out.contains("receipt_chain_other_key") && !fromFirst.out.contains("forged"),
             fromFirst.out.constData());

    // A key file that holds the key it succeeds is replaced, and that key signs for the new.
    const QString firstCopy = m_dir->filePath(u"first-copy.pem"_s);
    QVERIFY(QFile::copy(first, firstCopy));
    const Run rotated = ctl({u"signing-key"_s, u"new"_s, u"--db"_s, db(), u"--signing-key"_s, first});
    QCOMPARE(rotated.exitCode, 0);
    const QString thirdId = rotated.json().value(u"key_id"_s).toString();
    QCOMPARE(rotated.json().value(u"vouched_by"_s).toString(), firstId);
    // The first key trusts only itself: the second, unvouched, is left out.
    QCOMPARE(rotated.json().value(u"follows"_s).toArray(), QJsonArray{firstId});
    QCOMPARE(rotated.json().value(u"left_out"_s).toArray(), QJsonArray{secondId});
    QCOMPARE(ctl({u"invoke"_s, u"NOW"_s, u"--db"_s, db(), u"--signing-key"_s, first}).exitCode, 0);
    QCOMPARE(ctl({u"public-key"_s, u"--out"_s, m_dir->filePath(u"third.pub"_s), u"--db"_s, db(),
                  u"--signing-key"_s, first})
                 .json()
                 .value(u"key_id"_s)
                 .toString(),
             thirdId);
    // A copy of the replaced key signs no more.
    const Run retired = ctl({u"invoke"_s, u"NOW"_s, u"--db"_s, db(), u"--signing-key"_s, firstCopy});
    QCOMPARE(retired.exitCode, 4);
    QVERIFY2(retired.err.contains("signs no more: key " + thirdId.toUtf8() + " succeeds it"),
             retired.err.constData());
    // A key started from it would sign beside the one that succeeds it: that is the last resort.
    QVERIFY2(retired.err.contains("only if key " + thirdId.toUtf8() + " is lost, start a new key"),
             retired.err.constData());
    const Run fromThird = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db(), u"--signing-key"_s, first});
    QCOMPARE(fromThird.exitCode, 1);
    QVERIFY2(fromThird.out.contains("receipt_chain_other_key") && fromThird.out.contains(secondId.toUtf8()),
             fromThird.out.constData());
    // The second key's holder trusts the first (it follows it) and so the third, which the
    // first signed for: every chain verifies from there.
    const Run fromSecond = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db(), u"--signing-key"_s, here});
    QCOMPARE(fromSecond.exitCode, 0);
    QCOMPARE(fromSecond.json().value(u"intact"_s).toBool(), true);
    // Every receipt still confirms, whichever key signed it.
    const QJsonArray receipts = ctl({u"receipts"_s, u"--db"_s, db()}).json().value(u"receipts"_s).toArray();
    QCOMPARE(receipts.size(), 3);
    for (const QJsonValue &receipt : receipts) {
        const Run confirmed = ctl({u"confirm"_s, receipt.toObject().value(u"invocation_id"_s).toString(),
                                   u"--db"_s, db(), u"--signing-key"_s, first});
        QCOMPARE(confirmed.exitCode, 0);
    }
    // Not a file of another directory's key.
    const QString stranger = m_dir->filePath(u"stranger.db"_s);
    const QString strangerKey = m_dir->filePath(u"stranger.pem"_s);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, stranger}).exitCode, 0);
    QCOMPARE(ctl({u"invoke"_s, u"NOW"_s, u"--db"_s, stranger, u"--signing-key"_s, strangerKey}).exitCode, 0);
    const QByteArray strangerBefore = [&] {
        QFile file(strangerKey);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }();
    const Run foreign = ctl({u"signing-key"_s, u"new"_s, u"--db"_s, db(), u"--signing-key"_s, strangerKey});
    QCOMPARE(foreign.exitCode, 1);
    QVERIFY2(foreign.err.contains("not one of this directory's"), foreign.err.constData());
    QFile after(strangerKey);
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), strangerBefore);
}

void TestCapdeskctlReceipts::logRecordsMutationsAndVerifies()
{
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    const QByteArray row =
        R"({"key":"ZZ_LOG","type":"fn","target":"upper","category":"testing","content":)"
        R"("# WHAT: Upper-cases its text.\n# WHEN_TO_USE: a test needs a row.\n# ARGS: $1=text\n)"
        R"(# EX: [ZZ_LOG]hi[/ZZ_LOG]\n# OUTPUT: the text in upper case."})";
    QCOMPARE(ctl({u"put"_s, u"--db"_s, db()}, row).exitCode, 0);
    QCOMPARE(ctl({u"patch"_s, u"ZZ_LOG"_s, u"--db"_s, db()}, R"({"target":"lower"})").exitCode, 0);
    QCOMPARE(ctl({u"delete"_s, u"ZZ_LOG"_s, u"--db"_s, db()}).exitCode, 0);
    const QJsonArray events =
        ctl({u"log"_s, u"--key"_s, u"ZZ_LOG"_s, u"--db"_s, db()}).json().value(u"events"_s).toArray();
    QCOMPARE(events.size(), 3);
    QCOMPARE(events.at(0).toObject().value(u"action"_s).toString(), u"delete"_s);
    QCOMPARE(events.at(1).toObject().value(u"after"_s).toObject().value(u"target"_s).toString(), u"lower"_s);
    QCOMPARE(events.at(2).toObject().value(u"action"_s).toString(), u"create"_s);
    const Run verified = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db()});
    QCOMPARE(verified.exitCode, 0);
    QCOMPARE(verified.json().value(u"intact"_s).toBool(), true);
}

void TestCapdeskctlReceipts::logVerifyNamesTamperingAndChecksAnAnchor()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, db()}).exitCode, 0);
    const Run anchored = ctl({u"log"_s, u"--anchor"_s, u"--db"_s, db()});
    QCOMPARE(anchored.exitCode, 0);
    QCOMPARE(anchored.json().value(u"type"_s).toString(), u"capdesk.log_anchor"_s);
    const QString anchorFile = m_dir->filePath(u"anchor.json"_s);
    QFile file(anchorFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(anchored.out);
    file.close();
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"ho"_s, u"--db"_s, db()}).exitCode, 0);
    const Run clean = ctl({u"log"_s, u"--verify"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()});
    QCOMPARE(clean.exitCode, 0);
    QCOMPARE(clean.json().value(u"anchor"_s).toBool(), true);
    QCOMPARE(clean.json().value(u"receipts"_s).toObject().value(u"checked"_s).toInteger(), 2);
    QCOMPARE(ctl({u"log"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()}).exitCode, 2);

    const QString failure = RawSql::exec(db(), {u"DROP TRIGGER events_refuse_delete"_s,
                                                u"DELETE FROM events"_s, u"DELETE FROM event_chain_head"_s});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const auto codes = [](const Run &run) {
        QStringList list;
        for (const QJsonValue &finding : run.json().value(u"findings"_s).toArray())
            list.append(finding.toObject().value(u"code"_s).toString());
        return list;
    };
    const Run wiped = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db()});
    QCOMPARE(wiped.exitCode, 1);
    QCOMPARE(wiped.json().value(u"intact"_s).toBool(true), false);
    QVERIFY2(codes(wiped).contains(u"event_log_wiped"_s), wiped.out.constData());
    const Run pastAnchor = ctl({u"log"_s, u"--verify"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()});
    QCOMPARE(pastAnchor.exitCode, 1);
    QVERIFY2(codes(pastAnchor).contains(u"anchor_events_truncated"_s), pastAnchor.out.constData());
    // A log that does not verify gets no anchor.
    QCOMPARE(ctl({u"log"_s, u"--anchor"_s, u"--db"_s, db()}).exitCode, 1);
}

// A wipe of everything the log and the receipts hold, done by someone without the key:
// against the anchor it is a wipe, not a replaced key.
void TestCapdeskctlReceipts::logVerifyNamesAWipeBehindAnAnchor()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, db()}).exitCode, 0);
    const Run anchored = ctl({u"log"_s, u"--anchor"_s, u"--db"_s, db()});
    QCOMPARE(anchored.exitCode, 0);
    const QString anchorFile = m_dir->filePath(u"anchor.json"_s);
    QFile file(anchorFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(anchored.out);
    file.close();

    const QString failure =
        RawSql::exec(db(), {u"DROP TRIGGER events_refuse_delete"_s, u"DROP TRIGGER receipts_refuse_delete"_s,
                            u"DROP TRIGGER receipt_chain_links_refuse_delete"_s, u"DELETE FROM events"_s,
                            u"DELETE FROM event_chain_head"_s, u"DELETE FROM receipt_chain_links"_s,
                            u"DELETE FROM receipts"_s, u"DELETE FROM receipt_chain_heads"_s,
                            u"DELETE FROM sqlite_sequence"_s});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const Run wiped = ctl({u"log"_s, u"--verify"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()});
    QCOMPARE(wiped.exitCode, 1);
    const QStringList codes = findingCodes(wiped.json());
    QVERIFY2(codes.contains(u"event_log_wiped"_s), wiped.out.constData());
    QVERIFY2(codes.contains(u"anchor_events_truncated"_s), wiped.out.constData());
    QVERIFY2(codes.contains(u"anchor_receipts_truncated"_s), wiped.out.constData());
    QVERIFY2(!codes.contains(u"anchor_key_unknown"_s), wiped.out.constData());

    // An anchor made by another directory, with its own key, is one the directory does not hold.
    const QString otherDb = m_dir->filePath(u"other.db"_s);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, otherDb}).exitCode, 0);
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, otherDb}).exitCode, 0);
    const Run foreign = ctl({u"log"_s, u"--anchor"_s, u"--db"_s, otherDb});
    QCOMPARE(foreign.exitCode, 0);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(foreign.out);
    file.close();
    const Run replaced = ctl({u"log"_s, u"--verify"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()});
    QCOMPARE(replaced.exitCode, 1);
    QVERIFY2(findingCodes(replaced.json()).contains(u"anchor_key_unknown"_s), replaced.out.constData());
}

void TestCapdeskctlReceipts::logVerifyNamesAMalformedAnchor_data()
{
    QTest::addColumn<AnchorDefect>("defect");
    QTest::addColumn<QString>("reason");
    QTest::newRow("empty") << AnchorDefect::Empty << u"is empty"_s;
    QTest::newRow("not JSON") << AnchorDefect::NotJson << u"is not a JSON object"_s;
    QTest::newRow("truncated") << AnchorDefect::Truncated << u"is not a JSON object"_s;
    QTest::newRow("an array") << AnchorDefect::NotAnObject << u"is not a JSON object"_s;
    QTest::newRow("wrong type") << AnchorDefect::WrongType << u"not a Capdesk log anchor"_s;
    QTest::newRow("fields missing") << AnchorDefect::MissingFields << u"needs 'made_at'"_s;
    QTest::newRow("negative seq") << AnchorDefect::BadSeq << u"'seq' must be a whole number"_s;
    QTest::newRow("signature not base64") << AnchorDefect::BadSignatureBase64 << u"'signature'"_s;
    QTest::newRow("signature too short") << AnchorDefect::ShortSignature << u"'signature'"_s;
    QTest::newRow("public key not a key") << AnchorDefect::BadPublicKey << u"'public_key'"_s;
    QTest::newRow("huge") << AnchorDefect::Huge << u"is larger than"_s;
}

void TestCapdeskctlReceipts::logVerifyNamesAMalformedAnchor()
{
    QFETCH(AnchorDefect, defect);
    QFETCH(QString, reason);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, db()}).exitCode, 0);
    const Run anchored = ctl({u"log"_s, u"--anchor"_s, u"--db"_s, db()});
    QCOMPARE(anchored.exitCode, 0);
    QJsonObject anchor = anchored.json();
    const auto compact = [](const QJsonObject &json) {
        return QJsonDocument(json).toJson(QJsonDocument::Compact);
    };
    QByteArray bytes;
    switch (defect) {
    case AnchorDefect::Empty:
        break;
    case AnchorDefect::NotJson:
        bytes = "this is not an anchor";
        break;
    case AnchorDefect::Truncated:
        bytes = anchored.out.left(anchored.out.size() / 2);
        break;
    case AnchorDefect::NotAnObject:
        bytes = "[" + compact(anchor) + "]";
        break;
    case AnchorDefect::WrongType:
        anchor.insert(u"type"_s, u"something.else"_s);
        bytes = compact(anchor);
        break;
    case AnchorDefect::MissingFields:
        anchor.remove(u"public_key"_s);
        bytes = compact(anchor);
        break;
    case AnchorDefect::BadSeq:
        anchor.insert(u"events"_s, QJsonObject{{u"seq"_s, -3}, {u"hash"_s, QString(64, u'0')}});
        bytes = compact(anchor);
        break;
    case AnchorDefect::BadSignatureBase64:
        anchor.insert(u"signature"_s, u"!!not base64!!"_s);
        bytes = compact(anchor);
        break;
    case AnchorDefect::ShortSignature:
        anchor.insert(u"signature"_s, u"AAAA"_s);
        bytes = compact(anchor);
        break;
    case AnchorDefect::BadPublicKey:
        anchor.insert(u"public_key"_s, u"-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"_s);
        bytes = compact(anchor);
        break;
    case AnchorDefect::Huge:
        bytes = compact(anchor) + QByteArray(17 * 1024 * 1024, ' ');
        break;
    }
    const QString anchorFile = m_dir->filePath(u"anchor.json"_s);
    QFile file(anchorFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
    file.close();

    const Run verified = ctl({u"log"_s, u"--verify"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()});
    QCOMPARE(verified.exitCode, 1);
    QCOMPARE(verified.json().value(u"error"_s).toString(), u"anchor_invalid"_s);
    QVERIFY2(verified.json().value(u"reason"_s).toString().contains(reason), verified.out.constData());
    QCOMPARE(verified.json().value(u"intact"_s).toBool(true), false);
    QVERIFY2(findingCodes(verified.json()) == QStringList{u"anchor_invalid"_s}, verified.out.constData());
    QVERIFY2(!verified.err.contains("usage"), verified.err.constData());
    QVERIFY2(verified.err.contains("anchor_invalid"), verified.err.constData());
}

// A check that has no key to check the heads with says why, on stderr and as key_problem,
// rather than leaving the owner with "there is no key to check them with".
void TestCapdeskctlReceipts::logVerifySaysWhyNoKeyChecksTheHeads_data()
{
    QTest::addColumn<QString>("keyFile"); // the --signing-key given to log --verify
    QTest::addColumn<QByteArray>("said");
    QTest::addRow("an empty key file")
        << u"empty.pem"_s
        << QByteArray("cannot read the receipt-signing key: the receipt-signing key file %DIR%/empty.pem is "
                      "empty, so it holds no key");
    // Said as fits a check too: the key is not used, not "not signed with".
    QTest::addRow("a key file open to other users")
        << u"open.pem"_s
        << QByteArray(
               "cannot read the receipt-signing key: the receipt-signing key file %DIR%/open.pem is open "
               "to other users, so Capdesk will not use it");
    QTest::addRow("another directory's key")
        << u"other.pem"_s
        << QByteArray("the key held here, %OTHER%, is not one of this directory's keys (%ID%)");
    QTest::addRow("no key file") << u"gone.pem"_s
                                 << QByteArray(
                                        "this machine holds none of this directory's keys (%ID%; looked in "
                                        "%DIR%/gone.pem)");
    QTest::addRow("the key") << u"signing.pem"_s << QByteArray();
}

void TestCapdeskctlReceipts::logVerifySaysWhyNoKeyChecksTheHeads()
{
    QFETCH(QString, keyFile);
    QFETCH(QByteArray, said);
    const QString signing = m_dir->filePath(u"signing.pem"_s);
    const QString otherDb = m_dir->filePath(u"other.db"_s);
    const QString other = m_dir->filePath(u"other.pem"_s);
    for (const auto &[db, key] : {std::pair(db(), signing), std::pair(otherDb, other)}) {
        QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db}).exitCode, 0);
        QCOMPARE(ctl({u"invoke"_s, u"NOW"_s, u"--db"_s, db, u"--signing-key"_s, key}).exitCode, 0);
    }
    QFile empty(m_dir->filePath(u"empty.pem"_s));
    QVERIFY(empty.open(QIODevice::WriteOnly));
    empty.close();
    QVERIFY(empty.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    const QString open = m_dir->filePath(u"open.pem"_s);
    QVERIFY(QFile::copy(signing, open));
    QVERIFY(QFile::setPermissions(open,
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
    const auto keyId = [this](const QString &db, const QString &key) {
        return ctl({u"public-key"_s, u"--out"_s, m_dir->filePath(u"out.pub"_s), u"--db"_s, db,
                    u"--signing-key"_s, key})
            .json()
            .value(u"key_id"_s)
            .toString()
            .toUtf8();
    };
    said.replace("%DIR%", m_dir->path().toUtf8())
        .replace("%ID%", keyId(db(), signing))
        .replace("%OTHER%", keyId(otherDb, other));

    const Run verified =
        ctl({u"log"_s, u"--verify"_s, u"--db"_s, db(), u"--signing-key"_s, m_dir->filePath(keyFile)});
    if (said.isEmpty()) {
        QCOMPARE(verified.exitCode, 0);
        QVERIFY(!verified.json().contains(u"key_problem"_s));
        return;
    }
    QCOMPARE(verified.exitCode, 1);
    QVERIFY2(verified.err.contains("capdeskctl: no key to check the receipt chain heads with: " + said),
             verified.err.constData());
    QVERIFY(verified.json().value(u"key_problem"_s).toString().toUtf8().contains(said));
    QCOMPARE(verified.json().value(u"findings"_s).toArray().first().toObject().value(u"code"_s).toString(),
             u"no_trusted_key"_s);
    // A call says the same after "cannot sign receipts:", its sentence going on in lower
    // case, and public-key after "cannot show the receipt key:".
    if (said.startsWith("cannot read the receipt-signing key: ")) {
        const QByteArray why = said.mid(said.indexOf(": ") + 2);
        const Run invoked =
            ctl({u"invoke"_s, u"NOW"_s, u"--db"_s, db(), u"--signing-key"_s, m_dir->filePath(keyFile)});
        QCOMPARE(invoked.exitCode, 4);
        QVERIFY2(invoked.err.contains("cannot sign receipts: " + why), invoked.err.constData());
        const Run shown =
            ctl({u"public-key"_s, u"--db"_s, db(), u"--signing-key"_s, m_dir->filePath(keyFile)});
        QCOMPARE(shown.exitCode, 1);
        QVERIFY2(shown.err.contains("cannot show the receipt key: " + why), shown.err.constData());
        QVERIFY(!shown.err.contains("cannot sign"));
    }
}

void TestCapdeskctlReceipts::confirmRefusesARowHoldingAnotherReceipt()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const auto invokeId = [this](const QString &body) {
        return ctl({u"invoke"_s, u"BASE64_ENCODE"_s, body, u"--db"_s, db()})
            .json()
            .value(u"proof"_s)
            .toObject()
            .value(u"invocation_id"_s)
            .toString();
    };
    const QString asked = invokeId(u"a"_s);
    const QString other = invokeId(u"b"_s);
    QVERIFY(!asked.isEmpty() && !other.isEmpty());
    const QString failure = RawSql::exec(
        db(),
        {u"DROP TRIGGER receipts_refuse_update"_s,
         u"UPDATE receipts SET receipt_json = (SELECT receipt_json FROM receipts WHERE invocation_id = '%1') "
         "WHERE invocation_id = '%2'"_s.arg(other, asked)});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const Run confirmed = ctl({u"confirm"_s, asked, u"--db"_s, db()});
    QCOMPARE(confirmed.exitCode, 1);
    QCOMPARE(confirmed.json().value(u"confirmed"_s).toBool(true), false);
    QCOMPARE(confirmed.json().value(u"reason"_s).toString(), u"receipt_mismatch"_s);
    QCOMPARE(ctl({u"confirm"_s, other, u"--db"_s, db()}).exitCode, 0);
}

void TestCapdeskctlReceipts::confirmNamesWhyASignatureFails_data()
{
    // {id}: the invocation asked for; {other}: another directory's file, with a key of its own.
    QTest::addColumn<QStringList>("tampering");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("error");
    const QString row = u"WHERE invocation_id = '{id}'"_s;
    QTest::newRow("a signed field edited")
        << QStringList{u"DROP TRIGGER receipts_refuse_update"_s,
                       u"UPDATE receipts SET receipt_json = replace(receipt_json, '\"cost_usd\":0', "
                       "'\"cost_usd\":7') "_s
                           + row}
        << u"signature_mismatch"_s << u"edited after it was written"_s;
    QTest::newRow("the signature garbled")
        << QStringList{u"DROP TRIGGER receipts_refuse_update"_s,
                       u"UPDATE receipts SET receipt_json = replace(receipt_json, '\"signature\":\"', "
                       "'\"signature\":\"!!') "_s
                           + row}
        << u"signature_malformed"_s << u"base64"_s;
    QTest::newRow("the directory's key swapped for another")
        << QStringList{u"ATTACH DATABASE '{other}' AS other"_s, u"DELETE FROM signing_keys"_s,
                       u"INSERT INTO signing_keys SELECT * FROM other.signing_keys"_s}
        << u"key_unknown"_s << u"does not list"_s;
    QTest::newRow("no key listed") << QStringList{u"DELETE FROM signing_keys"_s} << u"no_key"_s
                                   << u"no public key"_s;
}

void TestCapdeskctlReceipts::confirmNamesWhyASignatureFails()
{
    QFETCH(QStringList, tampering);
    QFETCH(QString, reason);
    QFETCH(QString, error);
    const QString otherDb = m_dir->filePath(u"other.db"_s);
    for (const QString &file : {db(), otherDb}) {
        QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, file}).exitCode, 0);
        QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, file}).exitCode, 0);
    }
    const QString id = ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"asked"_s, u"--db"_s, db()})
                           .json()
                           .value(u"proof"_s)
                           .toObject()
                           .value(u"invocation_id"_s)
                           .toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(ctl({u"confirm"_s, id, u"--db"_s, db()}).exitCode, 0);
    for (QString &statement : tampering)
        statement.replace(u"{id}"_s, id).replace(u"{other}"_s, otherDb);
    const QString failure = RawSql::exec(db(), tampering);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));

    const Run confirmed = ctl({u"confirm"_s, id, u"--db"_s, db()});
    QCOMPARE(confirmed.exitCode, 1);
    QCOMPARE(confirmed.json().value(u"confirmed"_s).toBool(true), false);
    QCOMPARE(confirmed.json().value(u"invocation_id"_s).toString(), id);
    QVERIFY2(confirmed.json().value(u"signature"_s).toString() != u"valid"_s, confirmed.out.constData());
    QCOMPARE(confirmed.json().value(u"reason"_s).toString(), reason);
    QVERIFY2(confirmed.json().value(u"error"_s).toString().contains(error), confirmed.out.constData());
}

QTEST_GUILESS_MAIN(TestCapdeskctlReceipts)
#include "tst_capdeskctl_receipts.moc"

void TestCapdeskctlReceipts::archiveMovesOldReceiptsOutAndEveryCheckAccountsForThem()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QStringList ids;
    for (const QString &text : {u"one"_s, u"two"_s, u"three"_s}) {
        const Run run = ctl({u"invoke"_s, u"BASE64_ENCODE"_s, text, u"--db"_s, db()});
        QCOMPARE(run.exitCode, 0);
        ids.append(run.json().value(u"proof"_s).toObject().value(u"invocation_id"_s).toString());
    }
    const QString before = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    const Run later = ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"four"_s, u"--db"_s, db()});
    QCOMPARE(later.exitCode, 0);
    const QString kept = later.json().value(u"proof"_s).toObject().value(u"invocation_id"_s).toString();

    const QString segment = m_dir->filePath(u"2026-old.jsonl"_s);
    const Run archived =
        ctl({u"receipts"_s, u"archive"_s, u"--before"_s, before, u"--out"_s, segment, u"--db"_s, db()});
    QVERIFY2(archived.exitCode == 0, archived.err.constData());
    QCOMPARE(archived.json().value(u"archived"_s).toInteger(), 3);
    QCOMPARE(archived.json().value(u"archive_id"_s).toInteger(), 1);
    QCOMPARE(archived.json().value(u"segment"_s).toObject().value(u"receipt_count"_s).toInteger(), 3);

    const QJsonArray left = ctl({u"receipts"_s, u"--db"_s, db()}).json().value(u"receipts"_s).toArray();
    QCOMPARE(left.size(), 1);
    QCOMPARE(left.at(0).toObject().value(u"invocation_id"_s).toString(), kept);

    const Run verified = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db()});
    QVERIFY2(verified.exitCode == 0, verified.out.constData());
    QCOMPARE(verified.json().value(u"receipts"_s).toObject().value(u"archived"_s).toInteger(), 3);
    const QJsonArray events = ctl({u"log"_s, u"--db"_s, db()}).json().value(u"events"_s).toArray();
    QCOMPARE(events.at(0).toObject().value(u"kind"_s).toString(), u"RECEIPTS_ARCHIVED"_s);
    QCOMPARE(events.at(0).toObject().value(u"detail"_s).toObject().value(u"file"_s).toString(),
             u"2026-old.jsonl"_s);

    const Run whole = ctl({u"verify-receipt"_s, segment, u"--db"_s, db()});
    QVERIFY2(whole.exitCode == 0, whole.out.constData());
    QCOMPARE(whole.json().value(u"valid"_s).toBool(), true);
    QCOMPARE(whole.json().value(u"receipts"_s).toInteger(), 3);
    QCOMPARE(whole.json().value(u"archive_id"_s).toInteger(), 1);
    const Run one = ctl({u"verify-receipt"_s, segment, u"--invocation"_s, ids.at(1), u"--db"_s, db()});
    QCOMPARE(one.exitCode, 0);
    QCOMPARE(one.json().value(u"signature"_s).toString(), u"valid"_s);
    QCOMPARE(one.json().value(u"receipt"_s).toObject().value(u"invocation_id"_s).toString(), ids.at(1));
    QCOMPARE(ctl({u"verify-receipt"_s, segment, u"--invocation"_s, kept, u"--db"_s, db()}).exitCode, 3);

    // Offline, with the exported key and no directory at all.
    const QString keyFile = m_dir->filePath(u"key.pem"_s);
    QCOMPARE(ctl({u"public-key"_s, u"--out"_s, keyFile, u"--db"_s, db()}).exitCode, 0);
    QCOMPARE(ctl({u"verify-receipt"_s, segment, u"--public-key"_s, keyFile}).exitCode, 0);

    const Run gone = ctl({u"confirm"_s, ids.at(0), u"--db"_s, db()});
    QCOMPARE(gone.exitCode, 3);
    QCOMPARE(gone.json().value(u"archived_before"_s).toString(), before);
    const Run inSegment = ctl({u"confirm"_s, ids.at(0), u"--archive"_s, segment, u"--db"_s, db()});
    QVERIFY2(inSegment.exitCode == 0, inSegment.out.constData());
    QCOMPARE(inSegment.json().value(u"confirmed"_s).toBool(), true);
    QCOMPARE(inSegment.json().value(u"archive"_s).toObject().value(u"file"_s).toString(), segment);

    // One byte changed in the file, and every check that reads it says so.
    QFile file(segment);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray bytes = file.readAll();
    file.close();
    const qsizetype at = bytes.indexOf("BASE64_ENCODE");
    QVERIFY(at > 0);
    bytes[at] = 'b';
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
    file.close();
    const Run tampered = ctl({u"verify-receipt"_s, segment, u"--db"_s, db()});
    QCOMPARE(tampered.exitCode, 1);
    QCOMPARE(tampered.json().value(u"reason"_s).toString(), u"segment_altered"_s);
    QVERIFY(tampered.err.contains("segment_altered"));
    const Run notConfirmed = ctl({u"confirm"_s, ids.at(0), u"--archive"_s, segment, u"--db"_s, db()});
    QCOMPARE(notConfirmed.exitCode, 1);
    QCOMPARE(notConfirmed.json().value(u"reason"_s).toString(), u"segment_altered"_s);

    // Without its header line the file is still checked as a segment, and named as broken.
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes.mid(bytes.indexOf('\n') + 1));
    file.close();
    const Run headless = ctl({u"verify-receipt"_s, segment, u"--invocation"_s, ids.at(1), u"--db"_s, db()});
    QCOMPARE(headless.exitCode, 1);
    QCOMPARE(headless.json().value(u"reason"_s).toString(), u"segment_malformed"_s);
}

void TestCapdeskctlReceipts::archiveRefusesWhatItCannotDo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QString out = u"OUT"_s;
    QTest::newRow("no --before") << QStringList{u"--out"_s, out} << 2 << u"needs --before"_s;
    QTest::newRow("no --out") << QStringList{u"--before"_s, u"2026-01-01"_s} << 2 << u"needs --before"_s;
    QTest::newRow("not a date") << QStringList{u"--before"_s, u"yesterday"_s, u"--out"_s, out} << 2
                                << u"--before needs a date"_s;
    QTest::newRow("a month 13") << QStringList{u"--before"_s, u"2026-13-01"_s, u"--out"_s, out} << 2
                                << u"--before needs a date"_s;
    QTest::newRow("in the future") << QStringList{u"--before"_s, u"2999-01-01"_s, u"--out"_s, out} << 2
                                   << u"in the future"_s;
    QTest::newRow("with --key") << QStringList{u"--before"_s, u"2026-01-01"_s, u"--out"_s,
                                               out,           u"--key"_s,      u"K"_s}
                                << 2 << u"no --key"_s;
    QTest::newRow("an existing file")
        << QStringList{u"--before"_s, u"2020-01-01"_s, u"--out"_s, u"EXISTING"_s} << 4
        << u"never overwrites"_s;
}

void TestCapdeskctlReceipts::archiveRefusesWhatItCannotDo()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, db()}).exitCode, 0);
    const QString existing = m_dir->filePath(u"existing.jsonl"_s);
    QFile file(existing);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("mine\n");
    file.close();
    arguments.replaceInStrings(u"EXISTING"_s, existing);
    arguments.replaceInStrings(u"OUT"_s, m_dir->filePath(u"new.jsonl"_s));
    const Run run = ctl(QStringList{u"receipts"_s, u"archive"_s} + arguments + QStringList{u"--db"_s, db()});
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
    QVERIFY(!QFile::exists(m_dir->filePath(u"new.jsonl"_s)));
    QCOMPARE(ctl({u"receipts"_s, u"--db"_s, db()}).json().value(u"receipts"_s).toArray().size(), 1);
}
