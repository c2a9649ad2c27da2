#include "server/ownerkey.h"

#include <QCryptographicHash>

#include <openssl/crypto.h>
#include <openssl/rand.h>

namespace {

// Comparing digests rather than the keys keeps the comparison's length fixed, so the
// length of the real key does not leak either.
QByteArray digestOf(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

} // namespace

OwnerKey::OwnerKey(const QByteArray &key) : m_digest(digestOf(key)) {}

bool OwnerKey::matches(const QByteArray &presented) const
{
    const QByteArray digest = digestOf(presented);
    return !presented.isEmpty()
           && CRYPTO_memcmp(digest.constData(), m_digest.constData(), size_t(digest.size())) == 0;
}

QByteArray OwnerKey::generate()
{
    QByteArray random(32, Qt::Uninitialized);
    if (RAND_bytes(reinterpret_cast<unsigned char *>(random.data()), int(random.size())) != 1)
        qFatal("OpenSSL could not produce random bytes for the owner key");
    return QByteArrayLiteral("cdk_")
           + random.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}
