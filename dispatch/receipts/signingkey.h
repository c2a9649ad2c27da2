#pragma once

#include "dispatch/receipts/publickey.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

struct evp_pkey_st;

// An Ed25519 private key that signs receipts over their canonical JSON (SPEC §6). Copies
// share one immutable OpenSSL key; a default-constructed key is null and signs nothing.
class SigningKey final
{
public:
    SigningKey() = default;

    // A fresh key from the system's random source; null only if OpenSSL fails.
    static SigningKey generate();
    // An unencrypted PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----") of an Ed25519 key. The
    // error never quotes the input, which may be key material.
    static std::optional<SigningKey> fromPem(const QByteArray &pkcs8Pem, QString *error);

    QByteArray privatePem() const;
    PublicKey publicKey() const;
    // The 64-byte Ed25519 signature; empty for a null key.
    QByteArray sign(const QByteArray &message) const;
    bool isNull() const { return !m_key; }

private:
    explicit SigningKey(std::shared_ptr<evp_pkey_st> key);

    std::shared_ptr<evp_pkey_st> m_key;
};
