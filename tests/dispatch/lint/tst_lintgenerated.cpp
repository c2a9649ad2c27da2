#include "dispatch/lint/linter.h"
#include "dispatch/lint/lintrun.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/fixturegenerator.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// Lint of the production-shaped directory from gen_directory.py --rows 891: every fault the
// generator injects is found with its rule, and every row it made compliant passes.
class TestLintGenerated : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void injectedFaultsAreFound();
    void seedRowsWithoutDocsAreFound_data();
    void seedRowsWithoutDocsAreFound();
    void lintRunMatchesOneThread();

private:
    QTemporaryDir m_dir;
    QList<Row> m_rows;
    QHash<QString, QStringList> m_errorCodes;
};

namespace {

// The rule each injected fault must trip, read from the row the way the generator writes it.
QStringList injectedFaults(const Row &row)
{
    QStringList codes;
    const auto lacks = [&row](const char *tag) { return !row.content.contains(QLatin1String(tag)); };
    if (lacks("# WHAT: "))
        codes.append(QStringLiteral("H010"));
    if (lacks("# WHEN_TO_USE: "))
        codes.append(QStringLiteral("H011"));
    if (lacks("# ARGS: "))
        codes.append(QStringLiteral("H012"));
    if (lacks("# EX: "))
        codes.append(QStringLiteral("H013"));
    if (row.content.contains(QLatin1String("_OLD]")))
        codes.append(QStringLiteral("H014"));
    if (row.content.contains(QLatin1String("NO_SUCH_KEY_")))
        codes.append(QStringLiteral("H024"));
    if (row.inputSchema == QLatin1String("{not json"))
        codes.append(QStringLiteral("H050"));
    return codes;
}

} // namespace

void TestLintGenerated::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString path = m_dir.filePath(QStringLiteral("g.db"));
    const QString error = FixtureGenerator::makeDatabase(path, 891);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const auto store = SqlDirectoryStore::open(path);
    QVERIFY(store.ok());
    const StoreResult<QList<Row>> rows = store.value()->allRows();
    QVERIFY(rows.ok());
    m_rows = rows.value();
    QCOMPARE(m_rows.size(), 891);
    const DirectoryIndex index = DirectoryIndex::build(m_rows);
    const Linter linter(index);
    for (const Row &row : std::as_const(m_rows)) {
        QStringList codes;
        for (const LintFinding &finding : linter.lint(row)) {
            if (finding.isError() && !codes.contains(finding.code))
                codes.append(finding.code);
        }
        m_errorCodes.insert(row.key, codes);
    }
}

void TestLintGenerated::injectedFaultsAreFound()
{
    int faulty = 0;
    for (const Row &row : std::as_const(m_rows)) {
        if (row.seq.value_or(0) == 0)
            continue; // a seed row: production as it is, documented or not
        const QStringList expected = injectedFaults(row);
        const QStringList found = m_errorCodes.value(row.key);
        faulty += expected.isEmpty() ? 0 : 1;
        QVERIFY2(found == expected, qPrintable(QStringLiteral("%1: expected [%2], found [%3]")
                                                   .arg(row.key, expected.join(QLatin1Char(' ')),
                                                        found.join(QLatin1Char(' ')))));
    }
    // About 8% of 877 generated rows are broken; all of them were checked above.
    QVERIFY2(faulty > 40 && faulty < 110, qPrintable(QString::number(faulty)));
}

void TestLintGenerated::seedRowsWithoutDocsAreFound_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("compliant");
    QTest::addRow("NOW") << QStringLiteral("NOW") << true;
    QTest::addRow("ZZ_TEST_TEMPERATURE") << QStringLiteral("ZZ_TEST_TEMPERATURE") << true;
    QTest::addRow("SEND_BY_CHANNEL") << QStringLiteral("SEND_BY_CHANNEL") << true;
    QTest::addRow("BLOCK_VOICE") << QStringLiteral("BLOCK_VOICE") << false;
    QTest::addRow("BLOOIO_FINISH") << QStringLiteral("BLOOIO_FINISH") << false;
}

void TestLintGenerated::seedRowsWithoutDocsAreFound()
{
    QFETCH(QString, key);
    QFETCH(bool, compliant);
    QVERIFY(m_errorCodes.contains(key));
    QCOMPARE(m_errorCodes.value(key).isEmpty(), compliant);
}

// Lint-all on the pool, in chunks of rows and in two passes, finds exactly what linting
// each row in turn on one thread finds, in the same order.
void TestLintGenerated::lintRunMatchesOneThread()
{
    const QString path = m_dir.filePath(QStringLiteral("big.db"));
    QVERIFY(FixtureGenerator::makeDatabase(path, 3500, 7).isEmpty());
    const QList<Row> rows = SqlDirectoryStore::open(path).value()->allRows().value();
    QCOMPARE(rows.size(), 3500);

    const DirectoryIndex index = DirectoryIndex::build(rows);
    const Linter linter(index);
    QHash<QString, QList<LintFinding>> expected;
    for (const Row &row : rows) {
        if (const QList<LintFinding> findings = linter.lint(row); !findings.isEmpty())
            expected.insert(row.key, findings);
    }
    QVERIFY(expected.size() > 100);

    LintRun run;
    QSignalSpy finished(&run, &LintRun::finished);
    run.start(rows);
    QVERIFY(finished.wait(30000));
    const auto found = finished.first().first().value<QHash<QString, QList<LintFinding>>>();
    QCOMPARE(found.size(), expected.size());
    for (auto it = expected.cbegin(); it != expected.cend(); ++it)
        QCOMPARE(found.value(it.key()), it.value());
    QCOMPARE(run.takeRows(), rows);
    QCOMPARE(run.takeIndex().size(), index.size());
}

QTEST_GUILESS_MAIN(TestLintGenerated)
#include "tst_lintgenerated.moc"
