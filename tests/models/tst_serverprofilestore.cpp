#include "dispatch/secrets/keychainstore.h"
#include "models/serverprofilestore.h"
#include "tests/support/testcertificates.h"

#include <QFile>
#include <QSettings>
#include <QTest>

#include <limits>

// Server profiles: name and URL in the settings, the owner key in the keychain only.
// Needs a Secret Service (the dbus-run-session recipe in CONTRIBUTING.md / TOOLCHAIN.md).
class TestServerProfileStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void settingsHoldNoKey();
    void keyIsInTheKeychain();
    void savingWithoutAKeyKeepsTheStoredOne();
    void profilesAreSortedAndFoundByUrl();
    void namesMayHoldSlashes();
    void deleteRemovesSettingsAndKey();
    void unusableProfilesAreRefused_data();
    void unusableProfilesAreRefused();
    void caFileIsKeptBesideTheUrl();
    void unusableCaFilesAreRefused_data();
    void unusableCaFilesAreRefused();
    void pollIntervalIsKeptInTheProfile();
    void pollIntervalsOutOfRangeAreRefused_data();
    void pollIntervalsOutOfRangeAreRefused();
    void aHandEditedPollIntervalFallsBackToTheServersDefault_data();
    void aHandEditedPollIntervalFallsBackToTheServersDefault();

private:
    const QString m_key = QStringLiteral("owner-key-7f3a9c1e5b");
    TestCertificates m_certificates;
};

void TestServerProfileStore::initTestCase()
{
    QString why;
    if (!KeychainStore().available(&why))
        QSKIP(qPrintable(QStringLiteral("no keychain: %1").arg(why)));
    QVERIFY2(m_certificates.create(&why), qPrintable(why));
}

void TestServerProfileStore::init()
{
    for (const ServerProfile &profile : ServerProfileStore::profiles())
        ServerProfileStore::remove(profile.name);
    QSettings().clear();
}

void TestServerProfileStore::settingsHoldNoKey()
{
    QVERIFY(ServerProfileStore::save({QStringLiteral("prod"), QUrl(QStringLiteral("http://127.0.0.1:8787"))},
                                     m_key));
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(settings.fileName()));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.contains("127.0.0.1:8787"));
    QVERIFY(!bytes.contains(m_key.toUtf8()));
    for (const QString &name : settings.allKeys())
        QVERIFY(settings.value(name).toString() != m_key);
}

void TestServerProfileStore::keyIsInTheKeychain()
{
    QVERIFY(ServerProfileStore::save({QStringLiteral("prod"), QUrl(QStringLiteral("http://127.0.0.1:8787"))},
                                     m_key));
    const KeychainStore::Read read = KeychainStore().read(QStringLiteral("server-owner-key:prod"));
    QCOMPARE(read.status, KeychainStore::Read::Status::Found);
    QCOMPARE(read.value, m_key);
    QCOMPARE(ServerProfileStore::ownerKey(QStringLiteral("prod")).value, m_key);
}

void TestServerProfileStore::savingWithoutAKeyKeepsTheStoredOne()
{
    QVERIFY(ServerProfileStore::save({QStringLiteral("prod"), QUrl(QStringLiteral("http://127.0.0.1:8787"))},
                                     m_key));
    QVERIFY(ServerProfileStore::save({QStringLiteral("prod"), QUrl(QStringLiteral("http://127.0.0.1:9999"))},
                                     QString()));
    QCOMPARE(ServerProfileStore::profile(QStringLiteral("prod"))->url,
             QUrl(QStringLiteral("http://127.0.0.1:9999")));
    QCOMPARE(ServerProfileStore::ownerKey(QStringLiteral("prod")).value, m_key);
    QCOMPARE(ServerProfileStore::profiles().size(), 1);
}

void TestServerProfileStore::profilesAreSortedAndFoundByUrl()
{
    QVERIFY(ServerProfileStore::save({QStringLiteral("zeta"), QUrl(QStringLiteral("http://127.0.0.1:1/"))},
                                     QString()));
    QVERIFY(ServerProfileStore::save(
        {QStringLiteral("alpha"), QUrl(QStringLiteral("https://capdesk.example"))}, QString()));
    const QList<ServerProfile> profiles = ServerProfileStore::profiles();
    QCOMPARE(profiles.size(), 2);
    QCOMPARE(profiles.at(0).name, QStringLiteral("alpha"));
    QCOMPARE(profiles.at(1).name, QStringLiteral("zeta"));
    QCOMPARE(ServerProfileStore::profileForUrl(QUrl(QStringLiteral("http://127.0.0.1:1")))->name,
             QStringLiteral("zeta"));
    QCOMPARE(ServerProfileStore::profileForUrl(QUrl(QStringLiteral("https://capdesk.example/")))->name,
             QStringLiteral("alpha"));
    QVERIFY(!ServerProfileStore::profileForUrl(QUrl(QStringLiteral("http://127.0.0.1:2"))));
}

void TestServerProfileStore::namesMayHoldSlashes()
{
    const QString name = QStringLiteral("team/prod eu");
    QVERIFY(ServerProfileStore::save({name, QUrl(QStringLiteral("http://127.0.0.1:8787"))}, m_key));
    QCOMPARE(ServerProfileStore::profile(name)->name, name);
    QCOMPARE(ServerProfileStore::ownerKey(name).value, m_key);
}

void TestServerProfileStore::deleteRemovesSettingsAndKey()
{
    QVERIFY(ServerProfileStore::save({QStringLiteral("prod"), QUrl(QStringLiteral("http://127.0.0.1:8787"))},
                                     m_key));
    QVERIFY(ServerProfileStore::save({QStringLiteral("other"), QUrl(QStringLiteral("http://127.0.0.1:8788"))},
                                     m_key));
    QString why;
    QVERIFY2(ServerProfileStore::remove(QStringLiteral("prod"), &why), qPrintable(why));
    QVERIFY(!ServerProfileStore::profile(QStringLiteral("prod")));
    QCOMPARE(ServerProfileStore::ownerKey(QStringLiteral("prod")).status,
             KeychainStore::Read::Status::NotFound);
    // The other profile and its key are untouched.
    QVERIFY(ServerProfileStore::profile(QStringLiteral("other")));
    QCOMPARE(ServerProfileStore::ownerKey(QStringLiteral("other")).value, m_key);
}

void TestServerProfileStore::unusableProfilesAreRefused_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("reason");
    QTest::addRow("no name") << QString() << QStringLiteral("http://h") << QStringLiteral("name");
    QTest::addRow("no address") << QStringLiteral("p") << QString() << QStringLiteral("address");
    QTest::addRow("ftp") << QStringLiteral("p") << QStringLiteral("ftp://h") << QStringLiteral("http://");
    QTest::addRow("query") << QStringLiteral("p") << QStringLiteral("http://h/?key=x")
                           << QStringLiteral("query");
    QTest::addRow("key in the address")
        << QStringLiteral("p") << QStringLiteral("http://u:secret@h") << QStringLiteral("key field");
}

void TestServerProfileStore::unusableProfilesAreRefused()
{
    QFETCH(QString, name);
    QFETCH(QString, url);
    QFETCH(QString, reason);
    QString why;
    QVERIFY(!ServerProfileStore::save({name, QUrl(url)}, m_key, &why));
    QVERIFY2(why.contains(reason), qPrintable(why));
    QVERIFY(ServerProfileStore::profiles().isEmpty());
    QCOMPARE(ServerProfileStore::ownerKey(name).status, KeychainStore::Read::Status::NotFound);
}

void TestServerProfileStore::caFileIsKeptBesideTheUrl()
{
    const QUrl url(QStringLiteral("https://127.0.0.1:8443"));
    QVERIFY(ServerProfileStore::save({QStringLiteral("tls"), url, m_certificates.caFile()}, m_key));
    QVERIFY(ServerProfileStore::save({QStringLiteral("plain"), QUrl(QStringLiteral("http://127.0.0.1:8787"))},
                                     m_key));
    QCOMPARE(ServerProfileStore::profile(QStringLiteral("tls"))->caFile, m_certificates.caFile());
    QCOMPARE(*ServerProfileStore::profileForUrl(url),
             (ServerProfile{QStringLiteral("tls"), url, m_certificates.caFile()}));
    QCOMPARE(ServerProfileStore::profile(QStringLiteral("plain"))->caFile, QString());
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains(m_certificates.caFile().toUtf8()));
}

void TestServerProfileStore::unusableCaFilesAreRefused_data()
{
    QTest::addColumn<QString>("caFile");
    QTest::addColumn<QString>("reason");
    const QString missing = m_certificates.caFile() + QStringLiteral(".missing");
    QTest::addRow("missing") << missing << QStringLiteral("CA file %1 cannot be read").arg(missing);
    QTest::addRow("not PEM")
        << m_certificates.notPemFile()
        << QStringLiteral("CA file %1 holds no PEM certificate").arg(m_certificates.notPemFile());
}

void TestServerProfileStore::unusableCaFilesAreRefused()
{
    QFETCH(QString, caFile);
    QFETCH(QString, reason);
    QString why;
    QVERIFY(!ServerProfileStore::save({QStringLiteral("tls"), QUrl(QStringLiteral("https://h")), caFile},
                                      m_key, &why));
    QVERIFY2(why.startsWith(reason), qPrintable(why));
    QVERIFY(ServerProfileStore::profiles().isEmpty());
    QCOMPARE(ServerProfileStore::ownerKey(QStringLiteral("tls")).status,
             KeychainStore::Read::Status::NotFound);
}

void TestServerProfileStore::pollIntervalIsKeptInTheProfile()
{
    const QUrl url(QStringLiteral("http://127.0.0.1:8787"));
    QVERIFY(ServerProfileStore::save({QStringLiteral("slow"), url, QString(), 30}, m_key));
    QVERIFY(ServerProfileStore::save({QStringLiteral("default"), QUrl(QStringLiteral("http://h"))}, m_key));
    QCOMPARE(ServerProfileStore::profile(QStringLiteral("slow"))->pollSeconds, 30);
    QCOMPARE(*ServerProfileStore::profileForUrl(url),
             (ServerProfile{QStringLiteral("slow"), url, QString(), 30}));
    QCOMPARE(ServerProfileStore::profile(QStringLiteral("default"))->pollSeconds, 0);
}

void TestServerProfileStore::pollIntervalsOutOfRangeAreRefused_data()
{
    QTest::addColumn<int>("seconds");
    QTest::addRow("negative") << -1;
    QTest::addRow("over an hour") << ServerProfile::maxPollSeconds + 1;
    QTest::addRow("int max") << std::numeric_limits<int>::max();
}

void TestServerProfileStore::pollIntervalsOutOfRangeAreRefused()
{
    QFETCH(int, seconds);
    QString why;
    QVERIFY(!ServerProfileStore::save(
        {QStringLiteral("p"), QUrl(QStringLiteral("http://h")), QString(), seconds}, m_key, &why));
    QVERIFY2(why.contains(QStringLiteral("seconds")), qPrintable(why));
    QVERIFY(ServerProfileStore::profiles().isEmpty());
}

void TestServerProfileStore::aHandEditedPollIntervalFallsBackToTheServersDefault_data()
{
    QTest::addColumn<QVariant>("stored");
    QTest::addColumn<int>("seconds");
    QTest::addRow("in range") << QVariant(QStringLiteral("45")) << 45;
    QTest::addRow("words") << QVariant(QStringLiteral("soon")) << 0;
    QTest::addRow("two hours") << QVariant(QStringLiteral("7200")) << 0;
    QTest::addRow("negative") << QVariant(QStringLiteral("-5")) << 0;
    QTest::addRow("past int") << QVariant(QStringLiteral("99999999999")) << 0;
    QTest::addRow("fraction") << QVariant(QStringLiteral("2.5")) << 0;
}

void TestServerProfileStore::aHandEditedPollIntervalFallsBackToTheServersDefault()
{
    QFETCH(QVariant, stored);
    QFETCH(int, seconds);
    QVERIFY(ServerProfileStore::save({QStringLiteral("edited"), QUrl(QStringLiteral("http://h"))}, m_key));
    {
        QSettings settings;
        settings.beginWriteArray(QStringLiteral("serverProfiles"));
        settings.setArrayIndex(0);
        settings.setValue(QStringLiteral("pollSeconds"), stored);
        settings.endArray();
    }
    QCOMPARE(ServerProfileStore::profile(QStringLiteral("edited"))->pollSeconds, seconds);
}

QTEST_GUILESS_MAIN(TestServerProfileStore)
#include "tst_serverprofilestore.moc"
