// libFuzzer target: the signed successions of receipt-signing keys (SigningKeySuccession),
// read from signing_keys.succession, which whoever can write the directory file can edit.
// Property: whatever the text, following it from either of the two keys its genuine
// statement links (the new key, and the one it follows and that vouched for it) trusts no
// third key, and trusts the other of the two only when the text says what was signed.
// The corpus holds the genuine texts, vouched and not.

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/receipts/signingkeysuccession.h"

#include <cstdint>
#include <cstdlib>

namespace {

// Keys for this fuzzer only; they sign nothing else. Fixed, so the committed corpus stays
// valid from run to run.
const QByteArray kNextPem =
    QByteArrayLiteral("-----BEGIN PRIVATE KEY-----\n"
                      "MC4CAQAwBQYDK2VwBCIEIMTc1KSyw7jHZjHwLl4IAlqNjyIbKOZwqrXa2j2R+uCQ\n"
                      "-----END PRIVATE KEY-----\n");
const QByteArray kPreviousPem =
    QByteArrayLiteral("-----BEGIN PRIVATE KEY-----\n"
                      "MC4CAQAwBQYDK2VwBCIEINBMS36Y7a0MTVfRN/VtTKSMXYXvI0sMokCMMi+wAM59\n"
                      "-----END PRIVATE KEY-----\n");
const QString kMadeAt = QStringLiteral("2026-12-06T12:00:00.000Z");

struct Fixture
{
    PublicKey next;
    PublicKey previous;
};

const Fixture &fixture()
{
    static const Fixture made = [] {
        const SigningKey next = *SigningKey::fromPem(kNextPem, nullptr);
        const SigningKey previous = *SigningKey::fromPem(kPreviousPem, nullptr);
        Fixture f{next.publicKey(), previous.publicKey()};
        // The corpus was written from these; a seed that no longer links would fuzz noise.
        const std::optional<SigningKeySuccession> seed = SigningKeySuccession::fromText(
            SigningKeySuccession::make(next, {f.previous}, &previous, kMadeAt).toText(), f.next.keyId());
        if (!seed || SigningKeySuccession::widen({f.previous}, {*seed}).size() != 2)
            std::abort();
        return f;
    }();
    return made;
}

bool onlyTheTwo(const QList<PublicKey> &trusted, const Fixture &f)
{
    for (const PublicKey &key : trusted) {
        if (key.keyId() != f.next.keyId() && key.keyId() != f.previous.keyId())
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 512 * 1024)
        return 0;
    const Fixture &f = fixture();
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    for (const PublicKey &row : {f.next, f.previous}) {
        const std::optional<SigningKeySuccession> succession =
            SigningKeySuccession::fromText(text, row.keyId());
        if (!succession)
            continue;
        const QList<PublicKey> fromNext = SigningKeySuccession::widen({f.next}, {*succession});
        const QList<PublicKey> fromPrevious = SigningKeySuccession::widen({f.previous}, {*succession});
        if (!onlyTheTwo(fromNext, f) || !onlyTheTwo(fromPrevious, f))
            std::abort(); // a key nobody signed for is trusted
        // Only the statement signed links the two: the same key, following the same one,
        // made at the same time.
        const bool genuine = succession->key().keyId() == f.next.keyId() && succession->follows().size() == 1
                             && succession->follows().constFirst().keyId() == f.previous.keyId()
                             && succession->madeAt() == kMadeAt;
        if ((fromNext.size() > 1 || fromPrevious.size() > 1) && !genuine)
            std::abort();
        if (fromPrevious.size() > 1 && succession->vouchedBy() != f.previous.keyId())
            std::abort();
    }
    return 0;
}
