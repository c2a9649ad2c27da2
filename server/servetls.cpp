#include "server/servetls.h"

#include "dispatch/receipts/opensslsupport.h"

#include <QDateTime>
#include <QFile>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>

#include <openssl/pem.h>
#include <openssl/x509.h>

namespace ServeTls {

namespace {

using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using Certificate = std::unique_ptr<X509, decltype(&X509_free)>;

// A certificate chain is a few kilobytes; a file far larger is not one.
constexpr qint64 kMaxCertificateBytes = 1024 * 1024;

// Asked for a passphrase, OpenSSL would otherwise prompt on the terminal.
int noPassphrase(char *, int, int, void *)
{
    return 0;
}

std::optional<QByteArray> readFile(const QString &option, const QString &path, qint64 maxBytes,
                                   QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1 %2 cannot be read: %3").arg(option, path, file.errorString());
        return std::nullopt;
    }
    QByteArray bytes = file.read(maxBytes + 1);
    if (bytes.size() > maxBytes) {
        bytes.fill('\0');
        *error = QStringLiteral("%1 %2 is over %3 KiB; expected PEM").arg(option, path).arg(maxBytes >> 10);
        return std::nullopt;
    }
    return bytes;
}

Key privateKeyIn(const QByteArray &pem, const QString &path, QString *error)
{
    OpenSslSupport::Bio bio(BIO_new_mem_buf(pem.constData(), int(pem.size())), &BIO_free);
    Key key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, &noPassphrase, nullptr) : nullptr,
            &EVP_PKEY_free);
    ERR_clear_error();
    if (key)
        return key;
    if (pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || pem.contains("Proc-Type: 4,ENCRYPTED"))
        *error = QStringLiteral("--tls-key %1 is encrypted; serve needs the key unencrypted "
                                "(openssl pkey -in %1 -out KEY makes a copy without the passphrase)")
                     .arg(path);
    else
        *error = QStringLiteral("--tls-key %1 holds no PEM private key").arg(path);
    return key;
}

// The key again as unencrypted PKCS#8 PEM, whatever form the file used, for QSslKey.
QByteArray pkcs8Of(EVP_PKEY *key)
{
    OpenSslSupport::Bio bio(BIO_new(BIO_s_mem()), &BIO_free);
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return {};
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, qsizetype(size));
}

bool belongsTo(EVP_PKEY *key, const QSslCertificate &certificate)
{
    const QByteArray der = certificate.toDer();
    const auto *bytes = reinterpret_cast<const unsigned char *>(der.constData());
    const Certificate x509(d2i_X509(nullptr, &bytes, long(der.size())), &X509_free);
    const bool matches = x509 && X509_check_private_key(x509.get(), key) == 1;
    ERR_clear_error();
    return matches;
}

std::optional<QList<QSslCertificate>> chainIn(const QString &path, QString *error)
{
    const std::optional<QByteArray> bytes =
        readFile(QStringLiteral("--tls-cert"), path, kMaxCertificateBytes, error);
    if (!bytes)
        return std::nullopt;
    const QList<QSslCertificate> chain = QSslCertificate::fromData(*bytes, QSsl::Pem);
    if (chain.isEmpty()) {
        *error = QStringLiteral("--tls-cert %1 holds no PEM certificate").arg(path);
        return std::nullopt;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (chain.first().effectiveDate() > now) {
        *error = QStringLiteral("--tls-cert %1 is not valid before %2")
                     .arg(path, chain.first().effectiveDate().toString(Qt::ISODate));
        return std::nullopt;
    }
    if (chain.first().expiryDate() < now) {
        *error = QStringLiteral("--tls-cert %1 expired on %2")
                     .arg(path, chain.first().expiryDate().toString(Qt::ISODate));
        return std::nullopt;
    }
    return chain;
}

std::optional<QSsl::KeyAlgorithm> algorithmOf(EVP_PKEY *key)
{
    switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA:
        return QSsl::Rsa;
    case EVP_PKEY_EC:
        return QSsl::Ec;
    default:
        break;
    }
    return std::nullopt;
}

} // namespace

std::optional<QSslConfiguration> load(const QString &certificateFile, const QString &keyFile, QString *error)
{
    const std::optional<QList<QSslCertificate>> chain = chainIn(certificateFile, error);
    if (!chain)
        return std::nullopt;
    std::optional<QByteArray> pem =
        readFile(QStringLiteral("--tls-key"), keyFile, OpenSslSupport::maxPemBytes, error);
    if (!pem)
        return std::nullopt;
    const Key key = privateKeyIn(*pem, keyFile, error);
    pem->fill('\0');
    if (!key)
        return std::nullopt;
    const std::optional<QSsl::KeyAlgorithm> algorithm = algorithmOf(key.get());
    if (!algorithm) {
        *error = QStringLiteral("--tls-key %1 is neither an RSA nor an EC key").arg(keyFile);
        return std::nullopt;
    }
    if (!belongsTo(key.get(), chain->first())) {
        *error = QStringLiteral("--tls-key %1 is not the key of the certificate in --tls-cert %2")
                     .arg(keyFile, certificateFile);
        return std::nullopt;
    }
    QByteArray pkcs8 = pkcs8Of(key.get());
    const QSslKey sslKey(pkcs8, *algorithm, QSsl::Pem, QSsl::PrivateKey);
    pkcs8.fill('\0');
    if (sslKey.isNull()) {
        *error = QStringLiteral("--tls-key %1 cannot be used by Qt's TLS backend").arg(keyFile);
        return std::nullopt;
    }
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificateChain(*chain);
    configuration.setPrivateKey(sslKey);
    // The server does not ask clients for certificates: the owner key and tokens say who they are.
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
    return configuration;
}

} // namespace ServeTls
