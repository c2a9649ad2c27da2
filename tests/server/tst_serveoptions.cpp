#include "server/serveoptions.h"

#include <QTest>

class TestServeOptions : public QObject
{
    Q_OBJECT

private slots:
    void fromListen_data()
    {
        QTest::addColumn<QString>("listen");
        QTest::addColumn<QString>("base"); // empty: refused
        QTest::addRow("ipv4 loopback")
            << QStringLiteral("127.0.0.1:8787") << QStringLiteral("http://127.0.0.1:8787");
        QTest::addRow("other 127/8") << QStringLiteral("127.0.0.2:9000")
                                     << QStringLiteral("http://127.0.0.2:9000");
        QTest::addRow("localhost") << QStringLiteral("localhost:1") << QStringLiteral("http://127.0.0.1:1");
        QTest::addRow("ipv6 loopback") << QStringLiteral("[::1]:8787") << QStringLiteral("http://[::1]:8787");
        QTest::addRow("any address") << QStringLiteral("0.0.0.0:8787") << QString();
        QTest::addRow("lan address") << QStringLiteral("192.168.1.5:8787") << QString();
        QTest::addRow("host name") << QStringLiteral("example.com:80") << QString();
        QTest::addRow("no port") << QStringLiteral("127.0.0.1") << QString();
        QTest::addRow("port 0: any free one")
            << QStringLiteral("127.0.0.1:0") << QStringLiteral("http://127.0.0.1:0");
        QTest::addRow("port too big") << QStringLiteral("127.0.0.1:65536") << QString();
        QTest::addRow("port not a number") << QStringLiteral("127.0.0.1:http") << QString();
    }
    void fromListen()
    {
        QFETCH(QString, listen);
        QFETCH(QString, base);
        QString error;
        const ServeOptions options = ServeOptions::fromListen(listen, &error);
        QCOMPARE(error.isEmpty(), !base.isEmpty());
        if (!base.isEmpty())
            QCOMPARE(options.baseUrl(), base);
    }
    // With a certificate serve speaks HTTPS, and the owner key may then travel beyond loopback.
    void fromListenWithTls_data()
    {
        QTest::addColumn<QString>("listen");
        QTest::addColumn<QString>("base"); // empty: refused
        QTest::addRow("ipv4 loopback")
            << QStringLiteral("127.0.0.1:8787") << QStringLiteral("https://127.0.0.1:8787");
        QTest::addRow("any address") << QStringLiteral("0.0.0.0:8443")
                                     << QStringLiteral("https://0.0.0.0:8443");
        QTest::addRow("lan address") << QStringLiteral("192.168.1.5:8443")
                                     << QStringLiteral("https://192.168.1.5:8443");
        QTest::addRow("ipv6 any") << QStringLiteral("[::]:8443") << QStringLiteral("https://[::]:8443");
        QTest::addRow("host name") << QStringLiteral("example.com:443") << QString();
        QTest::addRow("port 0: any free one")
            << QStringLiteral("0.0.0.0:0") << QStringLiteral("https://0.0.0.0:0");
    }
    void fromListenWithTls()
    {
        QFETCH(QString, listen);
        QFETCH(QString, base);
        QString error;
        const ServeOptions options = ServeOptions::fromListen(listen, &error, QSslConfiguration());
        QCOMPARE(error.isEmpty(), !base.isEmpty());
        if (!base.isEmpty())
            QCOMPARE(options.baseUrl(), base);
    }
};

QTEST_GUILESS_MAIN(TestServeOptions)
#include "tst_serveoptions.moc"
