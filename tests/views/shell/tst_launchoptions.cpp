#include "views/shell/launchoptions.h"

#include <QTest>

Q_DECLARE_METATYPE(LaunchOptions::Source)

// SPEC §11: the GUI takes --db FILE, --server URL, or a bare FILE.
class TestLaunchOptions : public QObject
{
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
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
#include "tst_launchoptions.moc"
