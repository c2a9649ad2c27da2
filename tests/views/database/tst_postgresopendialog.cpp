#include "dispatch/secrets/keychainstore.h"
#include "dispatch/store/postgreslocation.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "tests/support/temporarypostgres.h"
#include "tests/views/shell/samplewindow.h"
#include "tests/views/viewtestsupport.h"
#include "views/database/postgresopendialog.h"
#include "views/shell/databaseopenactions.h"
#include "views/shell/fileactions.h"
#include "views/shell/recentfiles.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTimer>

Q_DECLARE_METATYPE(PostgresDirectoryProbe::Result)

namespace {

const QString kRole = QStringLiteral("ann");
const QString kPassword = QStringLiteral("pw-7c1e-only-in-the-keychain");

QString nameOf(const QString &url)
{
    return QUrl(url).path().mid(1);
}

QString keychainNameOf(const QString &url)
{
    return PostgresLocation::parse(url).value().keychainName();
}

} // namespace

// File → Open PostgreSQL Directory… against a real PostgreSQL server: the URL the form
// spells, Test Connection's three answers (a directory, an empty database, refused), and a
// password that lives in the keychain only, from the dialog to an open window.
class TestPostgresOpenDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void theFormSpellsTheUrl_data();
    void theFormSpellsTheUrl();
    void aUrlFillsTheForm();
    void testTellsAnEmptyDatabaseAndChangesNothing();
    void testCountsTheRowsOfADirectory();
    void aWrongPasswordIsRefusedByName();
    void openKeepsTheTypedPasswordInTheKeychainOnly();
    void theWindowOpensADatabaseWithTheKeychainsPassword();
    void theMenuOffersTheLastDatabaseOpened();

private:
    PostgresDirectoryProbe::Result runTest(PostgresOpenDialog &dialog);
    // A database owned by kRole, who must give kPassword; its URL for that role.
    QString passwordDatabase(bool withRows);
    // The settings file as written; empty when there is none.
    QByteArray settingsText() const;

    std::unique_ptr<TemporaryPostgres> m_postgres;
    QStringList m_keychainEntries;
};

void TestPostgresOpenDialog::initTestCase()
{
    qRegisterMetaType<PostgresDirectoryProbe::Result>();
    QString why;
    if (!KeychainStore().available(&why))
        QSKIP(qPrintable(QStringLiteral("no keychain: %1").arg(why)));
    m_postgres = TemporaryPostgres::start(&why);
    QVERIFY2(m_postgres, qPrintable(why));
    const QString owner = m_postgres->createDatabase(&why);
    QVERIFY2(!owner.isEmpty(), qPrintable(why));
    QCOMPARE(m_postgres->addPasswordRole(nameOf(owner), kRole, kPassword), QString());
    // The server reloads pg_hba.conf on a signal: wait until it asks for the password.
    const QString url = m_postgres->urlOf(nameOf(owner), kRole);
    QTRY_COMPARE_WITH_TIMEOUT(PostgresDirectoryProbe::probe(url, QStringLiteral("wrong")).found,
                              PostgresDirectoryProbe::Found::Refused, 10000);
}

void TestPostgresOpenDialog::init()
{
    QSettings().clear();
}

void TestPostgresOpenDialog::cleanup()
{
    for (const QString &entry : std::as_const(m_keychainEntries))
        KeychainStore().remove(entry);
    m_keychainEntries.clear();
}

PostgresDirectoryProbe::Result TestPostgresOpenDialog::runTest(PostgresOpenDialog &dialog)
{
    QSignalSpy finished(&dialog, &PostgresOpenDialog::testFinished);
    if (!dialog.testButton()->isEnabled())
        return {PostgresDirectoryProbe::Found::Refused, QStringLiteral("Test is disabled")};
    QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
    if (!finished.wait(15000))
        return {PostgresDirectoryProbe::Found::Refused, QStringLiteral("the test did not end")};
    return finished.first().first().value<PostgresDirectoryProbe::Result>();
}

QString TestPostgresOpenDialog::passwordDatabase(bool withRows)
{
    const QString name = nameOf(m_postgres->createDatabase());
    if (!m_postgres->exec(name, QStringLiteral("ALTER DATABASE %1 OWNER TO %2").arg(name, kRole)).isEmpty())
        return {};
    const QString url = m_postgres->urlOf(name, kRole);
    if (withRows) {
        // Made by the role itself, as its owner would: the tables are its own.
        auto store = SqlDirectoryStore::open(url, [](const QString &) { return kPassword; });
        if (!store.ok() || store.value()->importRows(sampleRows()).isError())
            return {};
    }
    return url;
}

QByteArray TestPostgresOpenDialog::settingsText() const
{
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void TestPostgresOpenDialog::theFormSpellsTheUrl_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("database");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("sslMode");
    QTest::addColumn<QString>("caFile");
    QTest::addColumn<QString>("shown");
    QTest::addColumn<bool>("openable");

    QTest::newRow("host and port") << "db.example.net" << 6543 << "caps"
                                   << "ann"
                                   << ""
                                   << ""
                                   << "postgresql://ann@db.example.net:6543/caps" << true;
    QTest::newRow("socket folder") << "/run/postgresql" << 5432 << "caps"
                                   << "ann"
                                   << ""
                                   << ""
                                   << "postgresql://ann@:5432/caps?host=/run/postgresql" << true;
    QTest::newRow("verify-full")
        << "10.0.0.5" << 5432 << "caps"
        << "ann"
        << "verify-full"
        << "/etc/ca.pem"
        << "postgresql://ann@10.0.0.5:5432/caps?sslmode=verify-full&sslrootcert=/etc/ca.pem" << true;
    QTest::newRow("IPv6") << "::1" << 5432 << "caps"
                          << "ann"
                          << ""
                          << ""
                          << "postgresql://ann@[::1]:5432/caps" << true;
    QTest::newRow("no database") << "db.example.net" << 5432 << ""
                                 << "ann"
                                 << ""
                                 << ""
                                 << "Name the host and the database." << false;
    QTest::newRow("no host") << "" << 5432 << "caps"
                             << "ann"
                             << ""
                             << ""
                             << "Name the host and the database." << false;
    QTest::newRow("CA path with a space") << "db.example.net" << 5432 << "caps"
                                          << "ann"
                                          << "verify-full"
                                          << "/etc/my ca.pem"
                                          << "holds a space" << false;
}

void TestPostgresOpenDialog::theFormSpellsTheUrl()
{
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, database);
    QFETCH(QString, user);
    QFETCH(QString, sslMode);
    QFETCH(QString, caFile);
    QFETCH(QString, shown);
    QFETCH(bool, openable);

    PostgresOpenDialog dialog;
    dialog.hostEdit()->setText(host);
    dialog.portEdit()->setValue(port);
    dialog.databaseEdit()->setText(database);
    dialog.userEdit()->setText(user);
    dialog.sslModeBox()->setCurrentIndex(qMax(0, dialog.sslModeBox()->findData(sslMode)));
    dialog.caFileEdit()->setText(caFile);
    QVERIFY2(dialog.urlLabel()->text().contains(shown), qPrintable(dialog.urlLabel()->text()));
    QCOMPARE(dialog.openButton()->isEnabled(), openable);
    QCOMPARE(dialog.testButton()->isEnabled(), openable);
    QCOMPARE(dialog.url().isEmpty(), !openable);
}

void TestPostgresOpenDialog::aUrlFillsTheForm()
{
    const QString url = QStringLiteral(
        "postgresql://ann@db.example.net:6543/caps?sslmode=verify-full&sslrootcert=/etc/ca.pem");
    PostgresOpenDialog dialog;
    dialog.setUrl(url);
    QCOMPARE(dialog.hostEdit()->text(), QStringLiteral("db.example.net"));
    QCOMPARE(dialog.portEdit()->value(), 6543);
    QCOMPARE(dialog.databaseEdit()->text(), QStringLiteral("caps"));
    QCOMPARE(dialog.userEdit()->text(), QStringLiteral("ann"));
    QCOMPARE(dialog.sslModeBox()->currentData().toString(), QStringLiteral("verify-full"));
    QCOMPARE(dialog.caFileEdit()->text(), QStringLiteral("/etc/ca.pem"));
    QCOMPARE(dialog.url(), url);
}

void TestPostgresOpenDialog::testTellsAnEmptyDatabaseAndChangesNothing()
{
    const QString url = m_postgres->createDatabase();
    PostgresOpenDialog dialog;
    dialog.setUrl(url);
    const PostgresDirectoryProbe::Result result = runTest(dialog);
    QCOMPARE(result.found, PostgresDirectoryProbe::Found::EmptyDatabase);
    QVERIFY2(dialog.resultLabel()->text().contains(QStringLiteral("no tables")),
             qPrintable(dialog.resultLabel()->text()));
    // Still empty: a test never makes a directory of what it looks at.
    QCOMPARE(PostgresDirectoryProbe::probe(url, QString()).found,
             PostgresDirectoryProbe::Found::EmptyDatabase);
}

void TestPostgresOpenDialog::testCountsTheRowsOfADirectory()
{
    const QString url = m_postgres->createDatabase();
    QVERIFY(openStoreWithRows(url, sampleRows()));
    PostgresOpenDialog dialog;
    dialog.setUrl(url);
    const PostgresDirectoryProbe::Result result = runTest(dialog);
    QCOMPARE(result.found, PostgresDirectoryProbe::Found::Directory);
    QCOMPARE(result.rows, qint64(sampleRows().size()));
    const QString shown = dialog.resultLabel()->text();
    QVERIFY2(shown.contains(QStringLiteral("%1 rows").arg(sampleRows().size())), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral(" ms")), qPrintable(shown));
}

void TestPostgresOpenDialog::aWrongPasswordIsRefusedByName()
{
    const QString url = passwordDatabase(false);
    QVERIFY(!url.isEmpty());
    PostgresOpenDialog dialog;
    dialog.setUrl(url);
    dialog.passwordEdit()->setText(QStringLiteral("not-it"));
    const PostgresDirectoryProbe::Result result = runTest(dialog);
    QCOMPARE(result.found, PostgresDirectoryProbe::Found::Refused);
    const QString shown = dialog.resultLabel()->text();
    QVERIFY2(shown.contains(QStringLiteral("password authentication failed")), qPrintable(shown));
    QVERIFY2(!shown.contains(QStringLiteral("not-it")), qPrintable(shown));
}

void TestPostgresOpenDialog::openKeepsTheTypedPasswordInTheKeychainOnly()
{
    const QString url = passwordDatabase(true);
    QVERIFY(!url.isEmpty());
    m_keychainEntries.append(keychainNameOf(url));
    SampleWindow sample;
    QVERIFY(sample.open());
    const auto openWith = [&sample, &url](const QString &typed) {
        QTimer::singleShot(0, sample.window.get(), [&url, typed] {
            if (auto *dialog = qobject_cast<PostgresOpenDialog *>(QApplication::activeModalWidget())) {
                dialog->setUrl(url);
                dialog->passwordEdit()->setText(typed);
                QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
            }
        });
        sample.window->databaseOpenActions()->openAction()->trigger();
    };
    const QString shown = PostgresLocation::parse(url).value().display();

    // Mistyped: the server refuses it, the window stays on its file, and nothing is kept.
    openWith(QStringLiteral("not-it"));
    QTRY_COMPARE_WITH_TIMEOUT(sample.prompter->errors.size(), 1, 15000);
    QVERIFY2(sample.prompter->errors.first().contains(QStringLiteral("password authentication failed")),
             qPrintable(sample.prompter->errors.first()));
    QCOMPARE(sample.session->location(), sample.path);
    QCOMPARE(KeychainStore().read(keychainNameOf(url)).status, KeychainStore::Read::Status::NotFound);

    // Right: the directory opens, and the password is kept in the keychain alone.
    QSignalSpy status(sample.window->databaseOpenActions(), &DatabaseOpenActions::statusMessage);
    openWith(kPassword);
    QCOMPARE(sample.session->location(), shown);
    QVERIFY(status.wait(15000));
    QCOMPARE(status.first().first().toString(),
             QStringLiteral("The password of %1 is in the keychain").arg(shown));
    const KeychainStore::Read stored = KeychainStore().read(keychainNameOf(url));
    QCOMPARE(stored.status, KeychainStore::Read::Status::Found);
    QCOMPARE(stored.value, kPassword);
    QVERIFY(!url.contains(kPassword));
    const QByteArray settings = settingsText();
    QVERIFY(settings.contains(url.toUtf8())); // the recent list, written beside it
    QVERIFY(!settings.contains(kPassword.toUtf8()));

    // Nothing typed: Test and Open take the keychain's password.
    PostgresOpenDialog again;
    again.setUrl(url);
    const PostgresDirectoryProbe::Result result = runTest(again);
    QVERIFY2(result.found == PostgresDirectoryProbe::Found::Directory, qPrintable(result.message));
    QSignalSpy accepted(&again, &QDialog::accepted);
    QTest::mouseClick(again.openButton(), Qt::LeftButton);
    QVERIFY(accepted.wait(15000));
    QCOMPARE(again.password(), kPassword);
    QVERIFY(!again.passwordTyped());
}

void TestPostgresOpenDialog::theWindowOpensADatabaseWithTheKeychainsPassword()
{
    const QString url = passwordDatabase(true);
    QVERIFY(!url.isEmpty());
    m_keychainEntries.append(keychainNameOf(url));
    QVERIFY(KeychainStore().set(keychainNameOf(url), kPassword));
    SampleWindow sample;
    QVERIFY(sample.open());
    // Read from the keychain first, without waiting here: true means started.
    QVERIFY(sample.window->fileActions()->openPath(url));
    const QString shown = PostgresLocation::parse(url).value().display();
    QTRY_COMPARE_WITH_TIMEOUT(sample.session->location(), shown, 15000);
    QCOMPARE(sample.prompter->errors, QStringList());
    QCOMPARE(sample.session->document()->tableModel()->rowCount(), int(sampleRows().size()));
    // The title names the database and where it is, not the tail of the socket folder.
    const PostgresLocation location = PostgresLocation::parse(url).value();
    QCOMPARE(
        sample.window->windowTitle(),
        QStringLiteral("Capdesk — %1 on %2 (PostgreSQL)[*]").arg(location.databaseName(), location.host()));
    QCOMPARE(RecentFiles::list().value(0), url);
    const QByteArray settings = settingsText();
    QVERIFY(settings.contains(url.toUtf8()));
    QVERIFY(!settings.contains(kPassword.toUtf8()));
}

void TestPostgresOpenDialog::theMenuOffersTheLastDatabaseOpened()
{
    SampleWindow sample;
    QVERIFY(sample.open());
    const QString url = m_postgres->urlOf(QStringLiteral("elsewhere"), kRole);
    RecentFiles::add(url);
    RecentFiles::add(sample.path); // a file opened since does not hide it
    QString offered;
    QTimer::singleShot(0, sample.window.get(), [&offered] {
        if (auto *dialog = qobject_cast<PostgresOpenDialog *>(QApplication::activeModalWidget())) {
            offered = dialog->url();
            dialog->reject();
        }
    });
    sample.window->databaseOpenActions()->openAction()->trigger();
    QCOMPARE(offered, url);
    QCOMPARE(sample.session->location(), sample.path); // cancelled: nothing changed
}

QTEST_MAIN(TestPostgresOpenDialog)
#include "tst_postgresopendialog.moc"
