#include "dispatch/lint/linter.h"
#include "dispatch/lint/lintrun.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/fixturegenerator.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

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
    void lintRunMatchesOneThread_data();
    void lintRunMatchesOneThread();
    void lintRunReportsAReadError();
    void cancelStopsTheReader();

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

void TestLintGenerated::lintRunMatchesOneThread_data()
{
    QTest::addColumn<int>("batchRows"); // 0: the rows handed over as one list
    QTest::addRow("a list") << 0;
    QTest::addRow("streamed from the store, 1,000 a batch") << 1000;
    QTest::addRow("streamed from the store, 7 a batch") << 7;
}

// Lint-all on the pool, in batches of rows and in two passes, finds exactly what linting
// each row in turn on one thread finds, in the same order, whether it is given the rows or
// reads them from the store batch by batch.
void TestLintGenerated::lintRunMatchesOneThread()
{
    QFETCH(int, batchRows);
    const QString path = m_dir.filePath(QStringLiteral("big.db"));
    if (!QFile::exists(path))
        QVERIFY(FixtureGenerator::makeDatabase(path, 3500, 7).isEmpty());
    const std::shared_ptr<SqlDirectoryStore> store = SqlDirectoryStore::open(path).value();
    const QList<Row> rows = store->allRows().value();
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
    int batches = 0;
    if (batchRows == 0) {
        run.start(rows);
    } else {
        run.start(
            [store, batchRows, &batches](const LintRun::Batch &batch) {
                return store->scanRows(
                    [&](QList<Row> &&part) {
                        ++batches;
                        return batch(std::move(part));
                    },
                    batchRows, DirectoryStore::RowOrder::Any);
            },
            int(rows.size()));
    }
    QVERIFY(finished.wait(30000));
    if (batchRows > 0)
        QCOMPARE(batches, (rows.size() + batchRows - 1) / batchRows);
    const auto found = finished.first().first().value<QHash<QString, QList<LintFinding>>>();
    QCOMPARE(found.size(), expected.size());
    for (auto it = expected.cbegin(); it != expected.cend(); ++it)
        QCOMPARE(found.value(it.key()), it.value());
    QCOMPARE(run.takeIndex().size(), index.size());
}

// A read that fails part-way ends the run with its message, never with the findings of
// the rows it had read.
void TestLintGenerated::lintRunReportsAReadError()
{
    LintRun run;
    QSignalSpy failed(&run, &LintRun::readFailed);
    QSignalSpy finished(&run, &LintRun::finished);
    run.start(
        [rows = m_rows](const LintRun::Batch &batch) {
            batch(rows.mid(0, 100));
            return StoreError::make(StoreError::Kind::Io, QStringLiteral("disk went away"));
        },
        int(m_rows.size()));
    QVERIFY(failed.wait(30000));
    QCOMPARE(failed.first().first().toString(), QStringLiteral("disk went away"));
    QCOMPARE(finished.size(), 0);
}

// cancel() stops a streamed run at its next batch: a reader that would hand batches over
// forever returns, and the run ends without findings.
void TestLintGenerated::cancelStopsTheReader()
{
    LintRun run;
    QSignalSpy progress(&run, &LintRun::progress);
    QSignalSpy cancelled(&run, &LintRun::cancelled);
    QSignalSpy finished(&run, &LintRun::finished);
    std::atomic<int> handedOver = 0;
    run.start(
        [rows = m_rows, &handedOver](const LintRun::Batch &batch) {
            while (batch(QList<Row>(rows)))
                ++handedOver;
            return StoreError::none();
        },
        int(m_rows.size()));
    // Once a batch is linted, the reader has handed at least one over.
    QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() && progress.last().at(0).toInt() > 0, 30000);
    run.cancel();
    QTRY_COMPARE(cancelled.size(), 1);
    QCOMPARE(finished.size(), 0);
    QVERIFY(handedOver.load() > 0);
    QVERIFY(!run.isRunning());
}

QTEST_GUILESS_MAIN(TestLintGenerated)
#include "tst_lintgenerated.moc"
