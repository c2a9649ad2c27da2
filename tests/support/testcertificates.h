#pragma once

#include <QSslConfiguration>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

// TLS material for a test, made at test time by the openssl command line in a temporary
// folder (nothing generated is committed): a CA, and server certificates and keys it signs.
// Every certificate lasts two days, except Expired's.
class TestCertificates final
{
public:
    enum class Server {
        Loopback, // subjectAltName IP:127.0.0.1
        OtherHost, // subjectAltName IP:127.0.0.2, DNS:example.invalid
        Expired, // IP:127.0.0.1, but its validity ended yesterday
    };

    TestCertificates() = default;
    Q_DISABLE_COPY_MOVE(TestCertificates)

    bool create(QString *error);

    // The CA's certificate (PEM): what a client adds to its trusted roots.
    QString caFile() const { return path(QStringLiteral("ca.pem")); }
    QString certificateFile(Server server) const;
    QString keyFile(Server server) const;
    // What an in-test HTTPS server (a QSslServer) presents: `server`'s certificate and key.
    QSslConfiguration serverConfiguration(Server server) const;
    // Loopback's key again, encrypted with a passphrase.
    QString encryptedKeyFile() const { return path(QStringLiteral("encrypted.key")); }
    // A file that is not PEM at all, for the refusals.
    QString notPemFile() const { return path(QStringLiteral("not-pem.txt")); }

private:
    static QString stem(Server server);
    QString path(const QString &name) const { return m_dir.filePath(name); }
    bool openssl(const QStringList &arguments, QString *error) const;
    bool sign(Server server, const QString &subjectAltName, int days, QString *error) const;

    QTemporaryDir m_dir;
};
