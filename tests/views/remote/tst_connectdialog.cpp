#include "dispatch/secrets/keychainstore.h"
#include "models/serverprofilestore.h"
#include "tests/support/guistallprobe.h"
#include "tests/support/refusingport.h"
#include "tests/support/secretservicepause.h"
#include "tests/support/serveprocess.h"
#include "tests/support/testcertificates.h"
#include "tests/views/viewtestsupport.h"
#include "views/remote/connectdialog.h"

#include <QElapsedTimer>

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>

// File → Connect to Server…: the connection test against a real `capdeskctl serve`, and
// the profile it saves (URL in the settings, key in the keychain). Needs a Secret Service
// (the dbus-run-session recipe). Its profile names are its own: ctest runs the other
// keychain tests at the same time against the same keychain.
class TestConnectDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void testReportsRowsAndLatency();
    void testSaysWhenTheKeyIsRefused();
    void testSaysWhenNothingListens();
    void connectSavesTheProfileWithTheKeyInTheKeychain();
    void aSavedProfileFillsTheFormWithoutShowingItsKey();
    void deleteRemovesTheProfileAndItsKey();
    void testOverHttps_data();
    void testOverHttps();
    void anUnusableCaFileIsNamedAndNotSaved();
    void connectSavesTheCaFileInTheProfile();
    void connectSavesThePollInterval();
    void aSlowKeychainNeverStopsTheWindow();

private:
    ConnectionCheck runTest(ConnectDialog &dialog);

    QTemporaryDir m_dir;
    ServeProcess m_server;
    TestCertificates m_certificates;
    ServeProcess m_tlsServer;
    const QByteArray m_key = QByteArrayLiteral("test-owner-key-1d5c9e");
};

void TestConnectDialog::initTestCase()
{
    QString why;
    if (!KeychainStore().available(&why))
        QSKIP(qPrintable(QStringLiteral("no keychain: %1").arg(why)));
    const QString path = m_dir.filePath(QStringLiteral("served.db"));
    QVERIFY(openStoreWithRows(path, sampleRows()));
    QString error;
    QVERIFY2(m_server.start(path, m_key, &error), qPrintable(error));
    QVERIFY2(m_certificates.create(&error), qPrintable(error));
    m_tlsServer.setTls(m_certificates.certificateFile(TestCertificates::Server::Loopback),
                       m_certificates.keyFile(TestCertificates::Server::Loopback));
    QVERIFY2(m_tlsServer.start(path, m_key, &error), qPrintable(error));
}

void TestConnectDialog::init()
{
    for (const ServerProfile &profile : ServerProfileStore::profiles())
        ServerProfileStore::remove(profile.name);
    QSettings().clear();
}

ConnectionCheck TestConnectDialog::runTest(ConnectDialog &dialog)
{
    QSignalSpy finished(&dialog, &ConnectDialog::testFinished);
    // A saved profile's key is read from the keychain first; until then Test waits.
    if (!QTest::qWaitFor([&dialog] { return dialog.testButton()->isEnabled(); }, 15000))
        return {};
    QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
    if (!finished.wait(15000))
        return {};
    return finished.first().first().value<ConnectionCheck>();
}

void TestConnectDialog::testReportsRowsAndLatency()
{
    ConnectDialog dialog;
    dialog.urlEdit()->setText(m_server.baseUrl().toString());
    dialog.keyEdit()->setText(QString::fromLatin1(m_key));
    const ConnectionCheck check = runTest(dialog);
    QVERIFY2(check.ok, qPrintable(check.message));
    QCOMPARE(check.rows, int(sampleRows().size()));
    QVERIFY(check.latencyMs >= 0);
    const QString shown = dialog.resultLabel()->text();
    QVERIFY2(shown.contains(QStringLiteral("%1 rows").arg(sampleRows().size())), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral(" ms")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("accepted")), qPrintable(shown));
    QVERIFY(dialog.testButton()->isEnabled());
}

void TestConnectDialog::testSaysWhenTheKeyIsRefused()
{
    ConnectDialog dialog;
    dialog.urlEdit()->setText(m_server.baseUrl().toString());
    dialog.keyEdit()->setText(QStringLiteral("not-the-key"));
    const ConnectionCheck check = runTest(dialog);
    QVERIFY(!check.ok);
    QVERIFY2(dialog.resultLabel()->text().contains(QStringLiteral("refused")),
             qPrintable(dialog.resultLabel()->text()));
}

void TestConnectDialog::testSaysWhenNothingListens()
{
    const RefusingPort probe;
    QVERIFY(probe.port() != 0);
    ConnectDialog dialog;
    dialog.urlEdit()->setText(QStringLiteral("http://127.0.0.1:%1").arg(probe.port()));
    dialog.keyEdit()->setText(QString::fromLatin1(m_key));
    const ConnectionCheck check = runTest(dialog);
    QVERIFY(!check.ok);
    const QString shown = dialog.resultLabel()->text();
    QVERIFY2(shown.contains(QStringLiteral("did not answer")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("connection refused")), qPrintable(shown));
}

void TestConnectDialog::connectSavesTheProfileWithTheKeyInTheKeychain()
{
    ConnectDialog dialog;
    dialog.show();
    dialog.nameEdit()->setText(QStringLiteral("local serve"));
    dialog.urlEdit()->setText(m_server.baseUrl().toString());
    dialog.keyEdit()->setText(QString::fromLatin1(m_key));
    QVERIFY(dialog.connectButton()->isEnabled());
    QTest::mouseClick(dialog.connectButton(), Qt::LeftButton);
    QTRY_COMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.ownerKey(), QString::fromLatin1(m_key));
    const std::optional<ServerProfile> saved = ServerProfileStore::profile(QStringLiteral("local serve"));
    QVERIFY(saved);
    QCOMPARE(saved->url, m_server.baseUrl());
    QCOMPARE(ServerProfileStore::ownerKey(QStringLiteral("local serve")).value, QString::fromLatin1(m_key));
    QSettings settings;
    for (const QString &name : settings.allKeys())
        QVERIFY(!settings.value(name).toString().contains(QString::fromLatin1(m_key)));
}

void TestConnectDialog::aSavedProfileFillsTheFormWithoutShowingItsKey()
{
    QVERIFY(ServerProfileStore::save({QStringLiteral("dialog-prod"), m_server.baseUrl()},
                                     QString::fromLatin1(m_key)));
    ConnectDialog dialog;
    QCOMPARE(dialog.profileList()->count(), 1);
    QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("dialog-prod"));
    QCOMPARE(dialog.urlEdit()->text(), m_server.baseUrl().toString());
    QVERIFY(dialog.keyEdit()->text().isEmpty());
    // The stored key is what a test and a connect use.
    QTRY_COMPARE(dialog.ownerKey(), QString::fromLatin1(m_key));
    const ConnectionCheck check = runTest(dialog);
    QVERIFY2(check.ok, qPrintable(check.message));
}

void TestConnectDialog::deleteRemovesTheProfileAndItsKey()
{
    QVERIFY(ServerProfileStore::save({QStringLiteral("dialog-prod"), m_server.baseUrl()},
                                     QString::fromLatin1(m_key)));
    ConnectDialog dialog;
    QVERIFY(dialog.deleteButton()->isEnabled());
    QTest::mouseClick(dialog.deleteButton(), Qt::LeftButton);
    QCOMPARE(dialog.profileList()->count(), 0);
    QVERIFY(!ServerProfileStore::profile(QStringLiteral("dialog-prod")));
    QCOMPARE(ServerProfileStore::ownerKey(QStringLiteral("dialog-prod")).status,
             KeychainStore::Read::Status::NotFound);
    QTRY_VERIFY2(dialog.resultLabel()->text().contains(QStringLiteral("Deleted")),
                 qPrintable(dialog.resultLabel()->text()));
}

void TestConnectDialog::aSlowKeychainNeverStopsTheWindow()
{
    QVERIFY(ServerProfileStore::save({QStringLiteral("dialog-slow"), m_server.baseUrl()},
                                     QString::fromLatin1(m_key)));
    // The real Secret Service answers 600 ms late while the dialog opens on that profile.
    constexpr int kPauseMs = 600;
    SecretServicePause pause;
    QString why;
    QVERIFY2(pause.pauseFor(kPauseMs, &why), qPrintable(why));
    GuiStallProbe probe;
    std::unique_ptr<ConnectDialog> dialog;
    QString stateWhileReading;
    bool connectWaited = false;
    QElapsedTimer took;
    took.start();
    probe.start();
    const bool read = runFromEventLoop(
        [&] {
            dialog = std::make_unique<ConnectDialog>();
            dialog->show();
            stateWhileReading = dialog->findChild<QLabel *>(QStringLiteral("profileKeyState"))->text();
            connectWaited = !dialog->connectButton()->isEnabled() && !dialog->testButton()->isEnabled();
        },
        [&] { return dialog && dialog->ownerKey() == QString::fromLatin1(m_key); });
    probe.stop();
    qInfo("%s", qPrintable(probe.summary()));
    QVERIFY(read);
    QVERIFY2(probe.deepestLoopLevel() == 1, qPrintable(probe.summary()));
    QVERIFY2(probe.largestGapMs() <= 100, qPrintable(probe.summary()));
    QVERIFY2(took.elapsed() >= kPauseMs / 2,
             qPrintable(QStringLiteral("read after %1 ms").arg(took.elapsed())));
    QVERIFY2(stateWhileReading.contains(QStringLiteral("Reading the key from the keychain")),
             qPrintable(stateWhileReading));
    QVERIFY(connectWaited);
    QVERIFY(dialog->connectButton()->isEnabled());
    QVERIFY(pause.waitUntilResumed(5000));
}

void TestConnectDialog::testOverHttps_data()
{
    QTest::addColumn<bool>("withCaFile");
    QTest::addColumn<QString>("shown");
    QTest::addRow("the CA file trusts the server") << true << QStringLiteral("owner key accepted");
    QTest::addRow("without it the certificate is refused")
        << false << QStringLiteral("did not answer: certificate for 127.0.0.1 is not trusted: ");
}

void TestConnectDialog::testOverHttps()
{
    QFETCH(bool, withCaFile);
    QFETCH(QString, shown);
    ConnectDialog dialog;
    dialog.urlEdit()->setText(m_tlsServer.baseUrl().toString());
    dialog.keyEdit()->setText(QString::fromLatin1(m_key));
    dialog.caFileEdit()->setText(withCaFile ? m_certificates.caFile() : QString());
    const ConnectionCheck check = runTest(dialog);
    QCOMPARE(check.ok, withCaFile);
    QVERIFY2(dialog.resultLabel()->text().contains(shown), qPrintable(dialog.resultLabel()->text()));
}

void TestConnectDialog::anUnusableCaFileIsNamedAndNotSaved()
{
    ConnectDialog dialog;
    dialog.show();
    const QString missing = m_certificates.caFile() + QStringLiteral(".missing");
    dialog.nameEdit()->setText(QStringLiteral("dialog-tls"));
    dialog.urlEdit()->setText(m_tlsServer.baseUrl().toString());
    dialog.caFileEdit()->setText(missing);
    QSignalSpy finished(&dialog, &ConnectDialog::testFinished);
    QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
    const QString named = QStringLiteral("CA file %1 cannot be read").arg(missing);
    QVERIFY2(dialog.resultLabel()->text().startsWith(named), qPrintable(dialog.resultLabel()->text()));
    QVERIFY(!dialog.isTesting());
    QTest::mouseClick(dialog.connectButton(), Qt::LeftButton);
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.resultLabel()->text().startsWith(named), qPrintable(dialog.resultLabel()->text()));
    QVERIFY(!ServerProfileStore::profile(QStringLiteral("dialog-tls")));
    QCOMPARE(finished.count(), 0);
}

void TestConnectDialog::connectSavesTheCaFileInTheProfile()
{
    ConnectDialog dialog;
    dialog.show();
    dialog.nameEdit()->setText(QStringLiteral("dialog-tls"));
    dialog.urlEdit()->setText(m_tlsServer.baseUrl().toString());
    dialog.keyEdit()->setText(QString::fromLatin1(m_key));
    dialog.caFileEdit()->setText(m_certificates.caFile());
    QTest::mouseClick(dialog.connectButton(), Qt::LeftButton);
    // The key goes to the keychain first, which answers on its own thread.
    QTRY_COMPARE(dialog.result(), int(QDialog::Accepted));
    const std::optional<ServerProfile> saved = ServerProfileStore::profile(QStringLiteral("dialog-tls"));
    QVERIFY(saved);
    QCOMPARE(saved->caFile, m_certificates.caFile());
    ConnectDialog reopened;
    reopened.selectProfile(QStringLiteral("dialog-tls"));
    QCOMPARE(reopened.caFileEdit()->text(), m_certificates.caFile());
    QVERIFY2(runTest(reopened).ok, qPrintable(reopened.resultLabel()->text()));
}

void TestConnectDialog::connectSavesThePollInterval()
{
    ConnectDialog dialog;
    dialog.show();
    QCOMPARE(dialog.pollSecondsEdit()->value(), 0);
    QVERIFY(dialog.pollSecondsEdit()->text().contains(QStringLiteral("server suggests")));
    dialog.nameEdit()->setText(QStringLiteral("dialog-poll"));
    dialog.urlEdit()->setText(m_server.baseUrl().toString());
    dialog.keyEdit()->setText(QString::fromLatin1(m_key));
    dialog.pollSecondsEdit()->selectAll();
    QTest::keyClicks(dialog.pollSecondsEdit(), QStringLiteral("20"));
    QCOMPARE(dialog.pollSecondsEdit()->value(), 20);
    QTest::mouseClick(dialog.connectButton(), Qt::LeftButton);
    QTRY_COMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(ServerProfileStore::profile(QStringLiteral("dialog-poll"))->pollSeconds, 20);
    ConnectDialog reopened;
    reopened.selectProfile(QStringLiteral("dialog-poll"));
    QCOMPARE(reopened.pollSecondsEdit()->value(), 20);
    reopened.selectProfile(QString());
    QCOMPARE(reopened.pollSecondsEdit()->value(), 0);
}

QTEST_MAIN(TestConnectDialog)
#include "tst_connectdialog.moc"
