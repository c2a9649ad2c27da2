#pragma once

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

struct evp_pkey_st;

// The public half of a receipt-signing key (SPEC §6): what anyone needs to verify a
// receipt offline. Copies share one immutable OpenSSL key, so they are cheap and may be
// used from several threads at once.
class PublicKey final
{
public:
    PublicKey() = default;

    // A SubjectPublicKeyInfo PEM ("-----BEGIN PUBLIC KEY-----") of an Ed25519 key.
    static std::optional<PublicKey> fromPem(const QByteArray &spkiPem, QString *error);

    QByteArray pem() const;
    // Names the key in the keychain and in signing_keys: the first 16 lowercase hex
    // characters of SHA-256 over the raw 32-byte key.
    QString keyId() const;
    // False for anything but a valid 64-byte signature of `message` by this key.
    bool verify(const QByteArray &message, const QByteArray &signature) const;

private:
    friend class SigningKey;
    explicit PublicKey(std::shared_ptr<evp_pkey_st> key);

    std::shared_ptr<evp_pkey_st> m_key;
};
