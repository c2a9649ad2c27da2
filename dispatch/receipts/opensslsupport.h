#pragma once

#include <QString>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <memory>

// What SigningKey and PublicKey share of OpenSSL: owners for its handles, the sizes they
// check, and how a failure's reason is read.
namespace OpenSslSupport {

inline constexpr int signatureBytes = 64;
// A PEM key is well under a kilobyte; anything far larger is not one, and BIO lengths are ints.
inline constexpr qsizetype maxPemBytes = 64 * 1024;

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;
using DigestContext = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

// OpenSSL keeps failures in a thread-local queue; the reason is taken and the queue
// emptied so that a later, unrelated call does not report this failure.
inline QString takeReason()
{
    const char *reason = ERR_reason_error_string(ERR_peek_last_error());
    ERR_clear_error();
    return reason ? QString::fromLatin1(reason) : QStringLiteral("unknown OpenSSL error");
}

} // namespace OpenSslSupport
