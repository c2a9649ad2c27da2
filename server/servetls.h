#pragma once

#include <QSslConfiguration>
#include <QString>

#include <optional>

// The certificate and key `capdeskctl serve --tls-cert FILE --tls-key FILE` presents,
// checked before the server starts so that a wrong file is a startup error rather than a
// failed handshake per client: the certificate file holds PEM certificates (the server's
// first, then its chain) valid today; the key file holds one unencrypted PEM private key
// (RSA or EC) that belongs to that certificate. Errors name the file and what is wrong;
// nothing of the key's contents ever reaches them.
namespace ServeTls {

std::optional<QSslConfiguration> load(const QString &certificateFile, const QString &keyFile, QString *error);

} // namespace ServeTls
