#include "server/servetls.h"
#include "tests/support/testcertificates.h"

#include <QFile>
#include <QSslCertificate>
#include <QSslKey>
#include <QTest>

using namespace Qt::StringLiterals;
using Server = TestCertificates::Server;

// The certificate and key of `serve --tls-cert --tls-key`, checked before the server starts:
// each wrong file is named with what is wrong, and no error carries the key's contents.
class TestServeTls : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void loads();
    void refusals_data();
    void refusals();

private:
    TestCertificates m_certificates;
    QList<QByteArray> m_keyLines; // the base64 lines of every key file, which no error may hold
};

void TestServeTls::initTestCase()
{
    QString error;
    QVERIFY2(m_certificates.create(&error), qPrintable(error));
    for (const QString &path :
         {m_certificates.keyFile(Server::Loopback), m_certificates.keyFile(Server::OtherHost),
          m_certificates.encryptedKeyFile()}) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (!line.startsWith("-----") && line.size() > 16)
                m_keyLines.append(line);
        }
    }
    QVERIFY(!m_keyLines.isEmpty());
}

void TestServeTls::loads()
{
    QString error;
    const std::optional<QSslConfiguration> tls = ServeTls::load(
        m_certificates.certificateFile(Server::Loopback), m_certificates.keyFile(Server::Loopback), &error);
    QVERIFY2(tls, qPrintable(error));
    QCOMPARE(tls->localCertificate(),
             QSslCertificate::fromPath(m_certificates.certificateFile(Server::Loopback)).value(0));
    QVERIFY(!tls->privateKey().isNull());
    QCOMPARE(tls->privateKey().algorithm(), QSsl::Ec);
}

void TestServeTls::refusals_data()
{
    QTest::addColumn<QString>("certificate");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("error"); // how the error starts

    const QString certificate = m_certificates.certificateFile(Server::Loopback);
    const QString key = m_certificates.keyFile(Server::Loopback);
    const QString missing = m_certificates.caFile() + u".missing"_s;
    const QString notPem = m_certificates.notPemFile();
    QTest::addRow("no certificate file")
        << missing << key << u"--tls-cert %1 cannot be read: No such file or directory"_s.arg(missing);
    QTest::addRow("no key file") << certificate << missing
                                 << u"--tls-key %1 cannot be read: No such file or directory"_s.arg(missing);
    QTest::addRow("certificate not PEM")
        << notPem << key << u"--tls-cert %1 holds no PEM certificate"_s.arg(notPem);
    QTest::addRow("key not PEM") << certificate << notPem
                                 << u"--tls-key %1 holds no PEM private key"_s.arg(notPem);
    QTest::addRow("a certificate where the key belongs")
        << certificate << certificate << u"--tls-key %1 holds no PEM private key"_s.arg(certificate);
    QTest::addRow("encrypted key") << certificate << m_certificates.encryptedKeyFile()
                                   << u"--tls-key %1 is encrypted; serve needs the key unencrypted"_s.arg(
                                          m_certificates.encryptedKeyFile());
    QTest::addRow("another certificate's key")
        << certificate << m_certificates.keyFile(Server::OtherHost)
        << u"--tls-key %1 is not the key of the certificate in --tls-cert %2"_s.arg(
               m_certificates.keyFile(Server::OtherHost), certificate);
    QTest::addRow("expired certificate")
        << m_certificates.certificateFile(Server::Expired) << m_certificates.keyFile(Server::Expired)
        << u"--tls-cert %1 expired on "_s.arg(m_certificates.certificateFile(Server::Expired));
}

void TestServeTls::refusals()
{
    QFETCH(QString, certificate);
    QFETCH(QString, key);
    QFETCH(QString, error);
    QString why;
    QVERIFY(!ServeTls::load(certificate, key, &why));
    QVERIFY2(why.startsWith(error), qPrintable(why));
    for (const QByteArray &line : std::as_const(m_keyLines))
        QVERIFY2(!why.toUtf8().contains(line), qPrintable(why));
}

QTEST_GUILESS_MAIN(TestServeTls)
#include "tst_servetls.moc"
