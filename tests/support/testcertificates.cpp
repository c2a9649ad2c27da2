#include "tests/support/testcertificates.h"

#include "tests/support/processrun.h"

#include <QFile>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>

namespace {

// P-256 keys are made in milliseconds, where RSA would take a noticeable part of a second.
const QStringList kNewKey{QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                          QStringLiteral("ec_paramgen_curve:P-256"), QStringLiteral("-nodes")};

} // namespace

QString TestCertificates::stem(Server server)
{
    switch (server) {
    case Server::Loopback:
        return QStringLiteral("loopback");
    case Server::OtherHost:
        return QStringLiteral("other-host");
    case Server::Expired:
        return QStringLiteral("expired");
    }
    return {};
}

QString TestCertificates::certificateFile(Server server) const
{
    return path(stem(server) + QStringLiteral(".pem"));
}

QString TestCertificates::keyFile(Server server) const
{
    return path(stem(server) + QStringLiteral(".key"));
}

bool TestCertificates::openssl(const QStringList &arguments, QString *error) const
{
    const ProcessRun::Result run = ProcessRun::run(QStringLiteral("openssl"), arguments);
    if (run.finished && run.exitCode == 0)
        return true;
    *error = QStringLiteral("openssl %1 failed: %2").arg(arguments.value(0), QString::fromUtf8(run.err));
    return false;
}

bool TestCertificates::sign(Server server, const QString &subjectAltName, int days, QString *error) const
{
    const QString request = path(stem(server) + QStringLiteral(".csr"));
    const QString extensions = path(stem(server) + QStringLiteral(".ext"));
    QFile file(extensions);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(
               QStringLiteral("subjectAltName=%1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
                   .arg(subjectAltName)
                   .toUtf8())
               < 0) {
        *error = QStringLiteral("cannot write %1").arg(extensions);
        return false;
    }
    file.close();
    return openssl(QStringList{QStringLiteral("req"), QStringLiteral("-new")} + kNewKey
                       + QStringList{QStringLiteral("-keyout"), keyFile(server), QStringLiteral("-out"),
                                     request, QStringLiteral("-subj"),
                                     QStringLiteral("/CN=capdesk test server")},
                   error)
           && openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), request,
                       QStringLiteral("-CA"), caFile(), QStringLiteral("-CAkey"),
                       path(QStringLiteral("ca.key")), QStringLiteral("-set_serial"),
                       QString::number(int(server) + 2), QStringLiteral("-days"), QString::number(days),
                       QStringLiteral("-extfile"), extensions, QStringLiteral("-out"),
                       certificateFile(server)},
                      error);
}

bool TestCertificates::create(QString *error)
{
    if (!m_dir.isValid()) {
        *error = QStringLiteral("no temporary folder for the certificates");
        return false;
    }
    QFile notPem(notPemFile());
    if (!notPem.open(QIODevice::WriteOnly) || notPem.write("this is not a certificate\n") < 0) {
        *error = QStringLiteral("cannot write %1").arg(notPemFile());
        return false;
    }
    notPem.close();
    // `-days -1` makes a certificate whose validity ended a day before it began.
    return openssl(QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + kNewKey
                       + QStringList{QStringLiteral("-keyout"), path(QStringLiteral("ca.key")),
                                     QStringLiteral("-out"), caFile(), QStringLiteral("-subj"),
                                     QStringLiteral("/CN=capdesk test CA"), QStringLiteral("-days"),
                                     QStringLiteral("2"), QStringLiteral("-addext"),
                                     QStringLiteral("basicConstraints=critical,CA:TRUE"),
                                     QStringLiteral("-addext"),
                                     QStringLiteral("keyUsage=critical,keyCertSign,cRLSign")},
                   error)
           && sign(Server::Loopback, QStringLiteral("IP:127.0.0.1"), 2, error)
           && sign(Server::OtherHost, QStringLiteral("IP:127.0.0.2, DNS:example.invalid"), 2, error)
           && sign(Server::Expired, QStringLiteral("IP:127.0.0.1"), -1, error)
           && openssl({QStringLiteral("pkey"), QStringLiteral("-in"), keyFile(Server::Loopback),
                       QStringLiteral("-aes256"), QStringLiteral("-passout"),
                       QStringLiteral("pass:capdesk-test"), QStringLiteral("-out"), encryptedKeyFile()},
                      error);
}

QSslConfiguration TestCertificates::serverConfiguration(Server server) const
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificate(QSslCertificate::fromPath(certificateFile(server)).value(0));
    QFile key(keyFile(server));
    if (key.open(QIODevice::ReadOnly))
        configuration.setPrivateKey(QSslKey(key.readAll(), QSsl::Ec));
    // The server does not ask clients for certificates.
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
    return configuration;
}
