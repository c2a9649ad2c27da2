#include "views/shell/launchoptions.h"

#include <QProcess>
#include <QTest>

Q_DECLARE_METATYPE(LaunchOptions::Source)

// SPEC §11: the GUI takes --db FILE, --server URL, or a bare FILE.
class TestLaunchOptions : public QObject
{
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void versionAndHelpAnswer();
    void versionNeedsNoDisplay();
};

void TestLaunchOptions::parse_data()
{
    using Source = LaunchOptions::Source;
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<Source>("source");
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("isError");

    const QString app = QStringLiteral("capdesk");
    QTest::addRow("nothing: default") << QStringList{app} << Source::Default << QString() << false;
    QTest::addRow("--db") << QStringList{app, QStringLiteral("--db"), QStringLiteral("/x/d.db")}
                          << Source::File << QStringLiteral("/x/d.db") << false;
    QTest::addRow("--db=") << QStringList{app, QStringLiteral("--db=/x/d.db")} << Source::File
                           << QStringLiteral("/x/d.db") << false;
    QTest::addRow("bare file") << QStringList{app, QStringLiteral("d.db")} << Source::File
                               << QStringLiteral("d.db") << false;
    QTest::addRow("--server") << QStringList{app, QStringLiteral("--server"), QStringLiteral("https://h")}
                              << Source::Server << QStringLiteral("https://h") << false;
    QTest::addRow("two sources") << QStringList{app, QStringLiteral("--db"), QStringLiteral("a"),
                                                QStringLiteral("b")}
                                 << Source::Default << QString() << true;
    QTest::addRow("two files") << QStringList{app, QStringLiteral("a"), QStringLiteral("b")}
                               << Source::Default << QString() << true;
    QTest::addRow("unknown option") << QStringList{app, QStringLiteral("--bogus")} << Source::Default
                                    << QString() << true;
    QTest::addRow("--db without a value")
        << QStringList{app, QStringLiteral("--db")} << Source::Default << QString() << true;
}

void TestLaunchOptions::parse()
{
    QFETCH(QStringList, arguments);
    QFETCH(LaunchOptions::Source, source);
    QFETCH(QString, value);
    QFETCH(bool, isError);

    const LaunchOptions options = LaunchOptions::parse(arguments);
    QCOMPARE(!options.error.isEmpty(), isError);
    if (isError)
        return;
    QCOMPARE(options.source, source);
    QCOMPARE(source == LaunchOptions::Source::Server ? options.serverUrl : options.file, value);
}

QTEST_GUILESS_MAIN(TestLaunchOptions)
void TestLaunchOptions::versionAndHelpAnswer()
{
    const QString app = QStringLiteral("capdesk");
    const LaunchOptions version = LaunchOptions::parse({app, QStringLiteral("--version")});
    QVERIFY(version.error.isEmpty());
    QCOMPARE(version.answer, QStringLiteral("capdesk %1\n").arg(QStringLiteral(CAPDESK_PROJECT_VERSION)));
    const LaunchOptions help = LaunchOptions::parse({app, QStringLiteral("-h")});
    QVERIFY(
        help.answer.startsWith(QStringLiteral("usage: capdesk [--db FILE|URL | --server PROFILE | FILE]")));
    for (const char *option : {"--db FILE|URL", "--server PROFILE", "--version", "-h, --help"})
        QVERIFY2(help.answer.contains(QLatin1String(option)), option);
    QVERIFY(LaunchOptions::parse({app, QStringLiteral("d.db")}).answer.isEmpty());
}

// The package's install test and a user on a bare console ask for the version where no
// X server runs: the binary answers before QApplication wants one.
void TestLaunchOptions::versionNeedsNoDisplay()
{
    QProcess capdesk;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("DISPLAY"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    capdesk.setProcessEnvironment(environment);
    capdesk.start(QStringLiteral(CAPDESK_PATH), {QStringLiteral("--version")});
    QVERIFY(capdesk.waitForFinished(30000));
    QCOMPARE(capdesk.exitCode(), 0);
    QCOMPARE(capdesk.readAllStandardOutput(), QByteArray("capdesk " CAPDESK_PROJECT_VERSION "\n"));
}

#include "tst_launchoptions.moc"
