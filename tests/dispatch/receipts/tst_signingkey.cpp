#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signingkey.h"

#include <QCryptographicHash>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// RFC 8032 §7.1, TEST 1: the empty message.
const QByteArray rfcSecret =
    QByteArray::fromHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
const QByteArray rfcPublic =
    QByteArray::fromHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
const QByteArray rfcSignature = QByteArray::fromHex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065"
                                                    "224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24"
                                                    "655141438e7a100b");

// RFC 8410: a PKCS#8 / SubjectPublicKeyInfo of Ed25519 is a fixed DER prefix and the raw key.
QByteArray pem(const QByteArray &label, const QByteArray &der)
{
    return "-----BEGIN " + label + "-----\n" + der.toBase64() + "\n-----END " + label + "-----\n";
}

QByteArray rfcPrivatePem()
{
    return pem("PRIVATE KEY", QByteArray::fromHex("302e020100300506032b657004220420") + rfcSecret);
}

QByteArray rfcPublicPem()
{
    return pem("PUBLIC KEY", QByteArray::fromHex("302a300506032b6570032100") + rfcPublic);
}

QByteArray flipBit(QByteArray bytes, int byte, int bit)
{
    bytes[byte] = char(bytes.at(byte) ^ (1 << bit));
    return bytes;
}

const QByteArray ecPrivatePem = "-----BEGIN PRIVATE KEY-----\n"
                                "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgPsb9M5ULmrzpuh3G\n"
                                "6HSZXgDSBl/nk5+DL44lRBF/nIuhRANCAARijzLqqh1IVRYZ4LUZnvF5TD8oxNNn\n"
                                "7q86MeORXtGSCtAEttAl+Bjx+TakBUb6MP7ofTg6jM5sJ9Q3XNh1QovR\n"
                                "-----END PRIVATE KEY-----\n";
const QByteArray ecPublicPem = "-----BEGIN PUBLIC KEY-----\n"
                               "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEGuTcU6T3XEfUJl/Ni0gvMEKgtccV\n"
                               "R0pUClclIx5EXI5z5dwTWu7r97XcvGWhnPHELDOB0Ur72cKOEMh4QT74tQ==\n"
                               "-----END PUBLIC KEY-----\n";
// An Ed25519 key under the passphrase "secret": must be refused, never prompted for.
const QByteArray encryptedPem = "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
                                "MIGbMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAg+aiv/F0+jbAICCAAw\n"
                                "DAYIKoZIhvcNAgkFADAdBglghkgBZQMEAQIEEOrR9+W36p3wDespCO1w04EEQPdM\n"
                                "EvNfiNX66oD1imVf5i1x6WYVPwHIV7ErVLeCtKgZHiC53aaseK+LFcvEbHa5q4nN\n"
                                "p18KExLIjziXiIIMxEg=\n"
                                "-----END ENCRYPTED PRIVATE KEY-----\n";

} // namespace

// SigningKey and PublicKey: Ed25519 through OpenSSL 3 (SPEC §6), checked against RFC 8032.
class TestSigningKey : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void rfc8032Vector();
    void signAndVerify_data();
    void signAndVerify();
    void tamperedFails_data();
    void tamperedFails();
    void pemRoundTrip();
    void copiesShareTheKey();
    void badPrivatePem_data();
    void badPrivatePem();
    void badPublicPem_data();
    void badPublicPem();
    void nullKeys();

private:
    SigningKey m_key;
};

void TestSigningKey::initTestCase()
{
    m_key = SigningKey::generate();
    QVERIFY(!m_key.isNull());
}

void TestSigningKey::rfc8032Vector()
{
    QString error;
    const std::optional<SigningKey> key = SigningKey::fromPem(rfcPrivatePem(), &error);
    QVERIFY2(key, qPrintable(error));
    QCOMPARE(key->sign(QByteArray()).toHex(), rfcSignature.toHex());
    const PublicKey publicKey = key->publicKey();
    QCOMPARE(publicKey.pem(), rfcPublicPem());
    QCOMPARE(publicKey.keyId(),
             QString::fromLatin1(
                 QCryptographicHash::hash(rfcPublic, QCryptographicHash::Sha256).toHex().left(16)));
    QCOMPARE(publicKey.keyId(), u"21fe31dfa154a261"_s);
    QVERIFY(publicKey.verify(QByteArray(), rfcSignature));
    const std::optional<PublicKey> parsed = PublicKey::fromPem(rfcPublicPem(), &error);
    QVERIFY2(parsed, qPrintable(error));
    QVERIFY(parsed->verify(QByteArray(), rfcSignature));
}

void TestSigningKey::signAndVerify_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addRow("empty") << QByteArray();
    QTest::addRow("text") << QByteArray("hello");
    QTest::addRow("canonical receipt") << QByteArray(R"({"invocation_id":"inv_c23irnzhx1","material":true})");
    QTest::addRow("binary with NULs") << QByteArray("\0\1\2\0\xff", 5);
    QTest::addRow("one MiB") << QByteArray(1 << 20, 'x');
}

void TestSigningKey::signAndVerify()
{
    QFETCH(QByteArray, message);
    const QByteArray signature = m_key.sign(message);
    QCOMPARE(signature.size(), 64);
    QVERIFY(m_key.publicKey().verify(message, signature));
    // Ed25519 is deterministic: the same message gives the same signature.
    QCOMPARE(m_key.sign(message), signature);
}

void TestSigningKey::tamperedFails_data()
{
    const QByteArray message = R"({"key":"ZZ_TEST_TEMPERATURE","status":"PROVEN_MATERIAL_RESULT"})";
    const QByteArray signature = m_key.sign(message);
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("signature");
    QTest::addRow("message: first bit") << flipBit(message, 0, 0) << signature;
    QTest::addRow("message: last bit") << flipBit(message, int(message.size()) - 1, 7) << signature;
    QTest::addRow("message: one byte more") << message + ' ' << signature;
    QTest::addRow("message: one byte less") << message.chopped(1) << signature;
    QTest::addRow("signature: R part") << message << flipBit(signature, 0, 0);
    QTest::addRow("signature: S part") << message << flipBit(signature, 40, 3);
    QTest::addRow("signature: last bit") << message << flipBit(signature, 63, 7);
    QTest::addRow("signature: truncated") << message << signature.chopped(1);
    QTest::addRow("signature: one byte more") << message << signature + '\0';
    QTest::addRow("signature: empty") << message << QByteArray();
    QTest::addRow("signature: zeros") << message << QByteArray(64, '\0');
    QTest::addRow("signature: base64 text") << message << signature.toBase64();
    QTest::addRow("signature: another key's") << message << SigningKey::generate().sign(message);
}

void TestSigningKey::tamperedFails()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, signature);
    QVERIFY(!m_key.publicKey().verify(message, signature));
}

void TestSigningKey::pemRoundTrip()
{
    const QByteArray privatePem = m_key.privatePem();
    QVERIFY(privatePem.startsWith("-----BEGIN PRIVATE KEY-----\n"));
    const QByteArray publicPem = m_key.publicKey().pem();
    QVERIFY(publicPem.startsWith("-----BEGIN PUBLIC KEY-----\n"));

    QString error;
    const std::optional<SigningKey> privateAgain = SigningKey::fromPem(privatePem, &error);
    QVERIFY2(privateAgain, qPrintable(error));
    const std::optional<PublicKey> publicAgain = PublicKey::fromPem(publicPem, &error);
    QVERIFY2(publicAgain, qPrintable(error));

    QCOMPARE(m_key.publicKey().keyId().size(), 16);
    QCOMPARE(privateAgain->publicKey().keyId(), m_key.publicKey().keyId());
    QCOMPARE(publicAgain->keyId(), m_key.publicKey().keyId());
    QCOMPARE(privateAgain->privatePem(), privatePem);
    QCOMPARE(publicAgain->pem(), publicPem);
    const QByteArray message = "round trip";
    QVERIFY(publicAgain->verify(message, m_key.sign(message)));
    QVERIFY(m_key.publicKey().verify(message, privateAgain->sign(message)));
    QVERIFY(SigningKey::generate().publicKey().keyId() != m_key.publicKey().keyId());
}

void TestSigningKey::copiesShareTheKey()
{
    const QByteArray message = "copy";
    SigningKey moved;
    PublicKey publicKey;
    {
        SigningKey original = SigningKey::generate();
        const SigningKey copy = original;
        QCOMPARE(copy.publicKey().keyId(), original.publicKey().keyId());
        publicKey = original.publicKey();
        moved = std::move(original);
    }
    QVERIFY(!moved.isNull());
    QVERIFY(publicKey.verify(message, moved.sign(message)));
}

void TestSigningKey::badPrivatePem_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addRow("empty") << QByteArray();
    QTest::addRow("text") << QByteArray("not a key at all");
    QTest::addRow("binary") << QByteArray("\0\xff\x30\x82", 4);
    QTest::addRow("header only") << QByteArray("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n");
    QTest::addRow("truncated") << rfcPrivatePem().left(40);
    QTest::addRow("bad base64") << QByteArray(rfcPrivatePem()).replace("MC4C", "M!4C");
    QTest::addRow("body altered") << QByteArray(rfcPrivatePem()).replace("MC4C", "MC5C");
    QTest::addRow("a public key") << rfcPublicPem();
    QTest::addRow("an EC P-256 key") << ecPrivatePem;
    QTest::addRow("encrypted, no passphrase asked") << encryptedPem;
    QTest::addRow("too large") << QByteArray(1 << 20, 'A');
}

void TestSigningKey::badPrivatePem()
{
    QFETCH(QByteArray, input);
    QString error;
    QVERIFY(!SigningKey::fromPem(input, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY2(!error.contains(u"MC4C"_s) && !error.contains(u"MIGH"_s), qPrintable(error));
    QVERIFY(!SigningKey::fromPem(input, nullptr));
}

void TestSigningKey::badPublicPem_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addRow("empty") << QByteArray();
    QTest::addRow("text") << QByteArray("-----BEGIN PUBLIC KEY-----\ngarbage\n-----END PUBLIC KEY-----\n");
    QTest::addRow("truncated") << rfcPublicPem().left(50);
    QTest::addRow("a private key") << rfcPrivatePem();
    QTest::addRow("an EC P-256 key") << ecPublicPem;
    QTest::addRow("too large") << QByteArray(1 << 20, 'A');
}

void TestSigningKey::badPublicPem()
{
    QFETCH(QByteArray, input);
    QString error;
    QVERIFY(!PublicKey::fromPem(input, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY2(!error.contains(u"MC4C"_s), qPrintable(error));
}

void TestSigningKey::nullKeys()
{
    const SigningKey key;
    QVERIFY(key.isNull());
    QVERIFY(key.sign("x").isEmpty());
    QVERIFY(key.privatePem().isEmpty());
    const PublicKey publicKey = key.publicKey();
    QVERIFY(publicKey.pem().isEmpty());
    QVERIFY(publicKey.keyId().isEmpty());
    QVERIFY(!publicKey.verify("x", QByteArray(64, '\0')));
}

QTEST_GUILESS_MAIN(TestSigningKey)
#include "tst_signingkey.moc"
