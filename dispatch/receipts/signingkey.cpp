#include "dispatch/receipts/signingkey.h"

#include "dispatch/receipts/opensslsupport.h"

#include <openssl/evp.h>
#include <openssl/pem.h>

namespace {

using OpenSslSupport::Bio;
using OpenSslSupport::DigestContext;
using OpenSslSupport::maxPemBytes;
using OpenSslSupport::signatureBytes;

// Without a callback OpenSSL would prompt on the terminal for an encrypted key's
// passphrase; keys here are never encrypted, so asking for one is a failure.
int refusePassphrase(char *, int, int, void *)
{
    return -1;
}

std::shared_ptr<evp_pkey_st> owned(EVP_PKEY *key)
{
    return std::shared_ptr<evp_pkey_st>(key, &EVP_PKEY_free);
}

} // namespace

SigningKey::SigningKey(std::shared_ptr<evp_pkey_st> key) : m_key(std::move(key)) {}

SigningKey SigningKey::generate()
{
    EVP_PKEY *key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
    if (!key) {
        ERR_clear_error();
        return {};
    }
    return SigningKey(owned(key));
}

std::optional<SigningKey> SigningKey::fromPem(const QByteArray &pkcs8Pem, QString *error)
{
    auto fail = [error](const QString &why) -> std::optional<SigningKey> {
        if (error)
            *error = QStringLiteral("not an Ed25519 private key in PKCS#8 PEM form: %1").arg(why);
        return std::nullopt;
    };
    if (pkcs8Pem.size() > maxPemBytes)
        return fail(QStringLiteral("%1 bytes is too large").arg(pkcs8Pem.size()));
    const Bio bio(BIO_new_mem_buf(pkcs8Pem.constData(), int(pkcs8Pem.size())), &BIO_free);
    EVP_PKEY *key = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, refusePassphrase, nullptr) : nullptr;
    if (!key)
        return fail(OpenSslSupport::takeReason());
    std::shared_ptr<evp_pkey_st> holder = owned(key);
    if (!EVP_PKEY_is_a(key, "ED25519"))
        return fail(QStringLiteral("the key is of another type"));
    return SigningKey(std::move(holder));
}

QByteArray SigningKey::privatePem() const
{
    const Bio bio(BIO_new(BIO_s_mem()), &BIO_free);
    if (!m_key || !bio
        || PEM_write_bio_PKCS8PrivateKey(bio.get(), m_key.get(), nullptr, nullptr, 0, nullptr, nullptr)
               != 1) {
        ERR_clear_error();
        return {};
    }
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, qsizetype(size));
}

PublicKey SigningKey::publicKey() const
{
    // A key of its own holding only the public half, so that no PublicKey ever carries
    // private material however it is passed around.
    unsigned char raw[32];
    std::size_t size = sizeof raw;
    EVP_PKEY *key = m_key && EVP_PKEY_get_raw_public_key(m_key.get(), raw, &size) == 1
                        ? EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, raw, size)
                        : nullptr;
    if (!key) {
        ERR_clear_error();
        return {};
    }
    return PublicKey(owned(key));
}

QByteArray SigningKey::sign(const QByteArray &message) const
{
    QByteArray signature(signatureBytes, Qt::Uninitialized);
    std::size_t size = std::size_t(signature.size());
    const DigestContext context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    // Ed25519 hashes internally: no digest is named, and the message goes in one piece.
    const bool signedOk =
        m_key && context && EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, m_key.get()) == 1
        && EVP_DigestSign(context.get(), reinterpret_cast<unsigned char *>(signature.data()), &size,
                          reinterpret_cast<const unsigned char *>(message.constData()),
                          std::size_t(message.size()))
               == 1;
    if (!signedOk) {
        ERR_clear_error();
        return {};
    }
    signature.truncate(qsizetype(size));
    return signature;
}
