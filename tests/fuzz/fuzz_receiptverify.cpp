// libFuzzer target: receipt verification (ReceiptVerifier) and the receipt reader.
// Property: no input verifies unless its signed content (canonical JSON without
// `signature`) is byte for byte that of the one receipt signed here. The corpus holds
// that receipt, so mutations start from a valid signature rather than from noise. The
// anchor reader and the chain head check run on every input too: they must not crash.

#include "dispatch/json/canonicaljson.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receipt.h"
#include "dispatch/receipts/receiptchainhead.h"
#include "dispatch/receipts/receiptloganchor.h"
#include "dispatch/receipts/receiptverifier.h"
#include "dispatch/receipts/signingkey.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>
#include <cstdlib>

namespace {

// A key for this fuzzer only; it signs nothing else. Fixed, so the committed corpus
// stays valid from run to run.
const QByteArray kFuzzKeyPem =
    QByteArrayLiteral("-----BEGIN PRIVATE KEY-----\n"
                      "MC4CAQAwBQYDK2VwBCIEIMTc1KSyw7jHZjHwLl4IAlqNjyIbKOZwqrXa2j2R+uCQ\n"
                      "-----END PRIVATE KEY-----\n");

struct Fixture
{
    SigningKey key;
    QList<PublicKey> keys;
    QByteArray signedBytes;
};

Receipt sampleReceipt()
{
    Receipt receipt;
    receipt.invocationId = QStringLiteral("inv_0fuzz00000");
    receipt.trace = QStringLiteral("t_0fuzz000");
    receipt.key = QStringLiteral("UPPERCASE");
    receipt.actor = QStringLiteral("owner:local");
    receipt.runner = QStringLiteral("fn");
    receipt.startedAt = QStringLiteral("2026-12-01T00:00:00.000Z");
    receipt.durationMs = 3;
    receipt.material = true;
    receipt.status = Receipt::statusFor(true);
    receipt.inputFingerprint = Receipt::sha256Hex(QStringLiteral("hi"));
    receipt.outputFingerprint = Receipt::sha256Hex(QStringLiteral("HI"));
    receipt.contractFingerprint = QString(64, u'a');
    return receipt;
}

const Fixture &fixture()
{
    static const Fixture made = [] {
        Fixture f;
        f.key = *SigningKey::fromPem(kFuzzKeyPem, nullptr);
        f.keys = {f.key.publicKey()};
        f.signedBytes = sampleReceipt().signedBytes();
        return f;
    }();
    return made;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    const Fixture &f = fixture();
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    if (!document.isObject())
        return 0;
    const QJsonObject json = document.object();

    if (ReceiptVerifier::check(json, f.keys) == ReceiptVerifier::Result::Valid) {
        QJsonObject content = json;
        content.remove(QStringLiteral("signature"));
        if (CanonicalJson::serialize(content) != f.signedBytes)
            std::abort(); // a receipt verified whose signed content is not the one signed
    }
    if (ReceiptVerifier::check(json, {}) != ReceiptVerifier::Result::NoKey)
        std::abort();

    QString error;
    if (const std::optional<Receipt> receipt = Receipt::fromJson(json, &error)) {
        // What the reader keeps must verify exactly when the JSON it came from does, for
        // a receipt made of the members the reader knows.
        const bool rebuiltValid =
            ReceiptVerifier::check(receipt->toJson(), f.keys) == ReceiptVerifier::Result::Valid;
        if (rebuiltValid && receipt->signedBytes() != f.signedBytes)
            std::abort();
    } else if (error.isEmpty()) {
        std::abort(); // a refusal must name its reason
    }

    if (const std::optional<ReceiptLogAnchor> anchor = ReceiptLogAnchor::fromJson(json, &error))
        anchor->selfSigned();
    ReceiptChainHead head;
    head.writer = json.value(QStringLiteral("writer")).toString();
    head.seq = json.value(QStringLiteral("seq")).toInteger();
    head.hash = json.value(QStringLiteral("hash")).toString();
    head.signature = json.value(QStringLiteral("signature")).toString();
    if (head.verifiedBy(f.keys))
        std::abort(); // no head was ever signed with the fuzz key
    return 0;
}
