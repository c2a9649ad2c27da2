#include "tests/bench/benchcommandline.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

// A benchmark's command line is read before any work: --help answers, and a word the
// benchmark does not take ends it with exit 2, so it never becomes a path or a count.
class TestBenchCommandLine final : public QObject
{
    Q_OBJECT

private slots:
    void check_data()
    {
        QTest::addColumn<QStringList>("line");
        QTest::addColumn<int>("exitCode"); // -1: the benchmark runs
        const auto line = [](std::initializer_list<QString> words) {
            return QStringList{QStringLiteral("bench")} + QStringList(words);
        };
        QTest::addRow("nothing") << line({}) << -1;
        QTest::addRow("its operand") << line({QStringLiteral("big.db")}) << -1;
        QTest::addRow("an option and its value")
            << line({QStringLiteral("--runs"), QStringLiteral("3"), QStringLiteral("big.db")}) << -1;
        QTest::addRow("a flag") << line({QStringLiteral("--small")}) << -1;
        QTest::addRow("--help") << line({QStringLiteral("--help")}) << 0;
        QTest::addRow("-h after an operand") << line({QStringLiteral("big.db"), QStringLiteral("-h")}) << 0;
        QTest::addRow("an unknown option") << line({QStringLiteral("--bogus")}) << 2;
        QTest::addRow("an option without its value") << line({QStringLiteral("--runs")}) << 2;
        QTest::addRow("one operand too many") << line({QStringLiteral("a.db"), QStringLiteral("b.db")}) << 2;
        QTest::addRow("a lone dash") << line({QStringLiteral("-"), QStringLiteral("big.db")}) << 2;
        QTest::addRow("a lone double dash") << line({QStringLiteral("--")}) << 2;
        QTest::addRow("--help as an option's value")
            << line({QStringLiteral("--runs"), QStringLiteral("--help")}) << 2;
        QTest::addRow("another option as an option's value")
            << line({QStringLiteral("--runs"), QStringLiteral("--small")}) << 2;
        QTest::addRow("a negative value, for its range to refuse")
            << line({QStringLiteral("--runs"), QStringLiteral("-1")}) << -1;
        QTest::addRow("a negative operand, for its range to refuse") << line({QStringLiteral("-5")}) << -1;
    }

    void check()
    {
        QFETCH(QStringList, line);
        QFETCH(int, exitCode);
        const std::optional<int> exit =
            BenchCommandLine::check(line, "bench [--runs N] [--small] [FILE.db]", 1,
                                    {QStringLiteral("--runs")}, {QStringLiteral("--small")});
        QCOMPARE(exit.value_or(-1), exitCode);
    }

    void number_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<int>("value"); // -1: refused
        const QString rows; // the ROWS operand
        const QString runs = QStringLiteral("--runs");
        QTest::addRow("no operand") << rows << QStringList() << 500;
        QTest::addRow("a count") << rows << QStringList{QStringLiteral("891")} << 891;
        QTest::addRow("the largest") << rows << QStringList{QStringLiteral("10000")} << 10000;
        QTest::addRow("zero") << rows << QStringList{QStringLiteral("0")} << -1;
        QTest::addRow("negative") << rows << QStringList{QStringLiteral("-5")} << -1;
        QTest::addRow("one too many") << rows << QStringList{QStringLiteral("10001")} << -1;
        QTest::addRow("a word") << rows << QStringList{QStringLiteral("all")} << -1;
        QTest::addRow("beyond int") << rows << QStringList{QStringLiteral("99999999999")} << -1;
        QTest::addRow("an option not given") << runs << QStringList{QStringLiteral("--small")} << 500;
        QTest::addRow("an option's value")
            << runs << QStringList{QStringLiteral("--small"), runs, QStringLiteral("7")} << 7;
        QTest::addRow("an option's value out of range")
            << runs << QStringList{runs, QStringLiteral("-1")} << -1;
        QTest::addRow("an option's value not a number")
            << runs << QStringList{runs, QStringLiteral("abc")} << -1;
    }

    void number()
    {
        QFETCH(QString, option);
        QFETCH(QStringList, words);
        QFETCH(int, value);
        const QStringList line = QStringList{QStringLiteral("bench")} + words;
        QCOMPARE(BenchCommandLine::number(line, option, 500, 1, 10000, "bench").value_or(-1), value);
    }

    void aLineOfRowsOnly()
    {
        int exitCode = -1;
        const auto run = [&exitCode](const QStringList &words) {
            return BenchCommandLine::rowsOnly(QStringList{QStringLiteral("bench")} + words, 500,
                                              "bench [ROWS]", exitCode);
        };
        QCOMPARE(run({QStringLiteral("7")}), std::optional<int>(7));
        QCOMPARE(run({}), std::optional<int>(500));
        QCOMPARE(run({QStringLiteral("--help")}), std::nullopt);
        QCOMPARE(exitCode, 0);
        QCOMPARE(run({QStringLiteral("all")}), std::nullopt);
        QCOMPARE(exitCode, 2);
        QCOMPARE(run({QStringLiteral("7"), QStringLiteral("8")}), std::nullopt);
        QCOMPARE(exitCode, 2);
    }

    void aDirectoryNamedMustBeThere()
    {
        QTemporaryDir folder;
        const QString present = folder.filePath(QStringLiteral("present.db"));
        QFile file(present);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY(BenchCommandLine::directoryExists(present));
        QVERIFY(BenchCommandLine::directoryExists(QStringLiteral("postgresql://bench@/capdesk?host=/tmp")));
        const QString missing = folder.filePath(QStringLiteral("missing.db"));
        QVERIFY(!BenchCommandLine::directoryExists(missing));
        QVERIFY(!QFileInfo::exists(missing));
        QVERIFY(!BenchCommandLine::directoryExists(folder.path())); // a folder is not a directory file
    }
};

QTEST_MAIN(TestBenchCommandLine)
#include "tst_benchcommandline.moc"
