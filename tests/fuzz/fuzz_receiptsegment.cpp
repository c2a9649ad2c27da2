// libFuzzer target: the receipt segment reader (ReceiptSegmentFile), which reads files
// that `capdeskctl receipts archive` wrote and anyone may since have edited. Property: an
// input verifies only if its seal is the one signed here, over exactly the lines before it;
// a refusal names its code and reason. The corpus holds a genuine two-receipt segment
// sealed with the fuzz key, so mutations start from a file that verifies; the receipt looked
// for is its first.

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptsegmentfile.h"
#include "dispatch/receipts/signingkey.h"
#include "tests/fuzz/fuzzcheck.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>

#include <cstdint>

namespace {

// The fuzz key of fuzz_receiptverify, which signs nothing else.
const QByteArray kFuzzKeyPem =
    QByteArrayLiteral("-----BEGIN PRIVATE KEY-----\n"
                      "MC4CAQAwBQYDK2VwBCIEIMTc1KSyw7jHZjHwLl4IAlqNjyIbKOZwqrXa2j2R+uCQ\n"
                      "-----END PRIVATE KEY-----\n");

struct Fixture
{
    QList<PublicKey> keys;
    QTemporaryDir dir;
    QString path;
};

Fixture &fixture()
{
    static Fixture made = [] {
        Fixture f;
        f.keys = {SigningKey::fromPem(kFuzzKeyPem, nullptr)->publicKey()};
        f.path = f.dir.filePath(QStringLiteral("segment.jsonl"));
        return f;
    }();
    return made;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256 * 1024)
        return 0;
    Fixture &f = fixture();
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    {
        QFile file(f.path);
        FUZZ_CHECK(file.open(QIODevice::WriteOnly | QIODevice::Truncate), file.errorString());
        file.write(bytes);
    }
    const ReceiptSegmentFile::Check check =
        ReceiptSegmentFile::verify(f.path, f.keys, QStringLiteral("inv_ylnluyeyh9"));
    if (!check.ok()) {
        FUZZ_CHECK(check.code.startsWith(QStringLiteral("segment_")), check.code);
        FUZZ_CHECK(!check.message.isEmpty(), check.code);
        return 0;
    }
    FUZZ_CHECK(check.seal && check.seal->selfSigned(), QStringLiteral("verified without a signed seal"));
    FUZZ_CHECK(check.seal->receiptCount == check.receipts, QStringLiteral("a count the lines do not have"));
    const qsizetype sealStart = bytes.lastIndexOf('\n', bytes.size() - 2) + 1;
    const QString linesHash = QString::fromLatin1(
        QCryptographicHash::hash(bytes.left(sealStart), QCryptographicHash::Sha256).toHex());
    FUZZ_CHECK(linesHash == check.seal->linesSha256,
               QStringLiteral("lines verified that the seal did not hash"));
    return 0;
}
