#include "tests/bench/benchcommandline.h"

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
        QTest::addRow("a flag given as an operand's place")
            << line({QStringLiteral("-"), QStringLiteral("big.db")}) << 2;
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

    void rows_data()
    {
        QTest::addColumn<QString>("operand");
        QTest::addColumn<int>("rows"); // -1: refused
        QTest::addRow("none") << QString() << 500;
        QTest::addRow("a count") << QStringLiteral("891") << 891;
        QTest::addRow("the largest") << QStringLiteral("10000000") << 10000000;
        QTest::addRow("zero") << QStringLiteral("0") << -1;
        QTest::addRow("negative") << QStringLiteral("-5") << -1;
        QTest::addRow("too many") << QStringLiteral("10000001") << -1;
        QTest::addRow("a word") << QStringLiteral("all") << -1;
        QTest::addRow("beyond int") << QStringLiteral("99999999999") << -1;
    }

    void rows()
    {
        QFETCH(QString, operand);
        QFETCH(int, rows);
        QStringList line{QStringLiteral("bench")};
        if (!operand.isNull())
            line.append(operand);
        QCOMPARE(BenchCommandLine::rows(line, 500).value_or(-1), rows);
    }
};

QTEST_MAIN(TestBenchCommandLine)
#include "tst_benchcommandline.moc"
