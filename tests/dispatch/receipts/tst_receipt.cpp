#include "dispatch/receipts/receipt.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

Receipt articleReceipt()
{
    Receipt receipt;
    receipt.invocationId = u"inv_c23irnzhx1"_s;
    receipt.trace = u"t_jweoafmw"_s;
    receipt.key = u"ZZ_TEST_TEMPERATURE"_s;
    receipt.actor = u"owner:terminal-key"_s;
    receipt.runner = u"http"_s;
    receipt.startedAt = u"2026-07-26T04:36:21.004Z"_s;
    receipt.durationMs = 312;
    receipt.material = true;
    receipt.status = Receipt::statusFor(true);
    receipt.inputFingerprint = Receipt::sha256Hex(u"37.77|-122.42"_s);
    receipt.outputFingerprint = Receipt::sha256Hex(u"HTTP 200:{}"_s);
    receipt.contractFingerprint = u"1db07a52"_s;
    return receipt;
}

} // namespace

// The receipt's JSON form (SPEC §6) and the bytes its signature covers.
class TestReceipt : public QObject
{
    Q_OBJECT

private slots:
    void jsonHasExactlyTheSpecFields();
    void signedBytesAreCanonicalAndLeaveOutTheSignature();
    void roundTripsThroughJson();
    void fromJsonNamesWhatIsWrong_data();
    void fromJsonNamesWhatIsWrong();
};

void TestReceipt::jsonHasExactlyTheSpecFields()
{
    Receipt receipt = articleReceipt();
    receipt.signature = u"c2ln"_s;
    const QJsonObject json = receipt.toJson();
    QCOMPARE(json.keys(), (QStringList{u"actor"_s, u"cost_usd"_s, u"duration_ms"_s, u"fingerprints"_s,
                                       u"invocation_id"_s, u"key"_s, u"material"_s, u"parent"_s, u"runner"_s,
                                       u"signature"_s, u"started_at"_s, u"status"_s, u"trace"_s}));
    QCOMPARE(json.value(u"fingerprints"_s).toObject().keys(),
             (QStringList{u"contract"_s, u"input"_s, u"output"_s}));
    QVERIFY(json.value(u"parent"_s).isNull());
    QCOMPARE(json.value(u"status"_s).toString(), u"PROVEN_MATERIAL_RESULT"_s);
}

void TestReceipt::signedBytesAreCanonicalAndLeaveOutTheSignature()
{
    Receipt receipt = articleReceipt();
    const QByteArray unsignedBytes = receipt.signedBytes();
    receipt.signature = u"c2ln"_s;
    QCOMPARE(receipt.signedBytes(), unsignedBytes);
    QVERIFY(unsignedBytes.startsWith(
        R"({"actor":"owner:terminal-key","cost_usd":0,"duration_ms":312,"fingerprints":{"contract":"1db07a52",)"));
    QVERIFY(
        unsignedBytes.contains(R"("parent":null,"runner":"http","started_at":"2026-07-26T04:36:21.004Z")"));
    QVERIFY(!unsignedBytes.contains("signature"));
    QVERIFY(!unsignedBytes.contains(' '));
}

void TestReceipt::roundTripsThroughJson()
{
    Receipt receipt = articleReceipt();
    receipt.parent = u"inv_0123456789"_s;
    receipt.signature = u"c2ln"_s;
    QString error;
    const std::optional<Receipt> read = Receipt::fromJson(receipt.toJson(), &error);
    QVERIFY2(read, qPrintable(error));
    QCOMPARE(read->toJson(), receipt.toJson());
    QCOMPARE(read->signedBytes(), receipt.signedBytes());
}

void TestReceipt::fromJsonNamesWhatIsWrong_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("message");
    QTest::addRow("no id") << u"invocation_id"_s << QJsonValue(QJsonValue::Undefined) << u"'invocation_id'"_s;
    QTest::addRow("numeric key") << u"key"_s << QJsonValue(7) << u"'key'"_s;
    QTest::addRow("parent not a string") << u"parent"_s << QJsonValue(true) << u"'parent'"_s;
    QTest::addRow("material as text") << u"material"_s << QJsonValue(u"true"_s) << u"'material'"_s;
    QTest::addRow("duration as text") << u"duration_ms"_s << QJsonValue(u"3"_s) << u"'duration_ms'"_s;
    QTest::addRow("no fingerprints") << u"fingerprints"_s << QJsonValue(QJsonValue::Undefined)
                                     << u"fingerprints:"_s;
    QTest::addRow("signature not a string") << u"signature"_s << QJsonValue(QJsonArray()) << u"'signature'"_s;
}

void TestReceipt::fromJsonNamesWhatIsWrong()
{
    QFETCH(QString, field);
    QFETCH(QJsonValue, value);
    QFETCH(QString, message);
    QJsonObject json = articleReceipt().toJson();
    if (value.isUndefined())
        json.remove(field);
    else
        json.insert(field, value);
    QString error;
    QVERIFY(!Receipt::fromJson(json, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestReceipt)
#include "tst_receipt.moc"
