#include "dispatch/receipts/publickey.h"

#include "dispatch/receipts/opensslsupport.h"

#include <QCryptographicHash>

#include <openssl/evp.h>
#include <openssl/pem.h>

namespace {

using OpenSslSupport::Bio;
using OpenSslSupport::DigestContext;
using OpenSslSupport::maxPemBytes;
using OpenSslSupport::signatureBytes;

} // namespace

PublicKey::PublicKey(std::shared_ptr<evp_pkey_st> key) : m_key(std::move(key)) {}

std::optional<PublicKey> PublicKey::fromPem(const QByteArray &spkiPem, QString *error)
{
    auto fail = [error](const QString &why) -> std::optional<PublicKey> {
        if (error)
            *error = QStringLiteral("not an Ed25519 public key in PEM form: %1").arg(why);
        return std::nullopt;
    };
    if (spkiPem.size() > maxPemBytes)
        return fail(QStringLiteral("%1 bytes is too large").arg(spkiPem.size()));
    const Bio bio(BIO_new_mem_buf(spkiPem.constData(), int(spkiPem.size())), &BIO_free);
    EVP_PKEY *key = bio ? PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    if (!key)
        return fail(OpenSslSupport::takeReason());
    std::shared_ptr<evp_pkey_st> owned(key, &EVP_PKEY_free);
    if (!EVP_PKEY_is_a(key, "ED25519"))
        return fail(QStringLiteral("the key is of another type"));
    return PublicKey(std::move(owned));
}

QByteArray PublicKey::pem() const
{
    const Bio bio(BIO_new(BIO_s_mem()), &BIO_free);
    if (!m_key || !bio || PEM_write_bio_PUBKEY(bio.get(), m_key.get()) != 1) {
        ERR_clear_error();
        return {};
    }
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, qsizetype(size));
}

QString PublicKey::keyId() const
{
    QByteArray raw(32, Qt::Uninitialized);
    std::size_t size = std::size_t(raw.size());
    if (!m_key
        || EVP_PKEY_get_raw_public_key(m_key.get(), reinterpret_cast<unsigned char *>(raw.data()), &size)
               != 1) {
        ERR_clear_error();
        return {};
    }
    raw.truncate(qsizetype(size));
    return QString::fromLatin1(QCryptographicHash::hash(raw, QCryptographicHash::Sha256).toHex().left(16));
}

bool PublicKey::verify(const QByteArray &message, const QByteArray &signature) const
{
    if (!m_key || signature.size() != signatureBytes)
        return false;
    const DigestContext context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    // Ed25519 hashes internally: no digest is named, and the message goes in one piece.
    const bool valid =
        context && EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, m_key.get()) == 1
        && EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char *>(signature.constData()),
                            std::size_t(signature.size()),
                            reinterpret_cast<const unsigned char *>(message.constData()),
                            std::size_t(message.size()))
               == 1;
    ERR_clear_error();
    return valid;
}
