#include "dispatch/runners/tlstrust.h"

#include <QFile>
#include <QSslCertificate>
#include <QSslSocket>

namespace TlsTrust {

namespace {

QList<QSslCertificate> certificatesIn(const QString &caFile, QString *error)
{
    QFile file(caFile);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("CA file %1 cannot be read: %2").arg(caFile, file.errorString());
        return {};
    }
    const QByteArray bytes = file.read(maxCaFileBytes + 1);
    if (bytes.size() > maxCaFileBytes) {
        *error = QStringLiteral("CA file %1 is over %2 MiB; expected PEM certificates")
                     .arg(caFile)
                     .arg(maxCaFileBytes >> 20);
        return {};
    }
    QList<QSslCertificate> certificates = QSslCertificate::fromData(bytes, QSsl::Pem);
    if (certificates.isEmpty())
        *error = QStringLiteral("CA file %1 holds no PEM certificate").arg(caFile);
    return certificates;
}

} // namespace

QSslConfiguration systemConfiguration()
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setPeerVerifyMode(QSslSocket::VerifyPeer);
    return configuration;
}

std::optional<QSslConfiguration> withCaFile(const QString &caFile, QString *error)
{
    const QList<QSslCertificate> extra = certificatesIn(caFile, error);
    if (extra.isEmpty())
        return std::nullopt;
    QSslConfiguration configuration = systemConfiguration();
    // Setting the list ends Qt's on-demand loading of the roots, so they are listed too.
    configuration.setCaCertificates(QSslConfiguration::systemCaCertificates() + extra);
    return configuration;
}

QString caFileProblem(const QString &caFile)
{
    QString error;
    certificatesIn(caFile, &error);
    return error;
}

QString describe(const QString &host, const QList<QSslError> &errors)
{
    QStringList words;
    bool onlyHostName = !errors.isEmpty();
    for (const QSslError &error : errors) {
        words.append(error.errorString());
        onlyHostName = onlyHostName && error.error() == QSslError::HostNameMismatch;
    }
    words.removeDuplicates();
    const QString verdict =
        onlyHostName ? QStringLiteral("names another host") : QStringLiteral("is not trusted");
    return QStringLiteral("certificate for %1 %2: %3").arg(host, verdict, words.join(QStringLiteral("; ")));
}

} // namespace TlsTrust
