#pragma once

#include <QList>
#include <QSslConfiguration>
#include <QSslError>
#include <QString>

#include <optional>

// Which certificates HttpTransport trusts, and how a refused one is named. Peers are
// always verified: against the system roots, plus the certificates of a CA file when a
// request names one (a private CA, or a self-signed server's own certificate). The file
// adds to the roots and never replaces them, so trusting a private CA for one server
// leaves every other server verified as before.
namespace TlsTrust {

// A CA bundle is a few hundred kilobytes; a file far larger is not one.
inline constexpr qint64 maxCaFileBytes = 16 * 1024 * 1024;

// The system roots only (Qt loads them on demand).
QSslConfiguration systemConfiguration();
// The system roots plus every certificate in `caFile`, or nothing and why.
std::optional<QSslConfiguration> withCaFile(const QString &caFile, QString *error);
// Why `caFile` cannot be used ("CA file F cannot be read: …", "CA file F holds no PEM
// certificate"); empty when it can. For checks at the door: a profile, --ca-file.
QString caFileProblem(const QString &caFile);
// "certificate for HOST is not trusted: <Qt's words>" or "certificate for HOST names
// another host: <Qt's words>".
QString describe(const QString &host, const QList<QSslError> &errors);

} // namespace TlsTrust
