#include "dispatch/lint/linter.h"
#include "dispatch/lint/lintrun.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"
#include "tests/support/fixturegenerator.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// CPU time, which other processes on a busy machine do not inflate the way they do wall time.
double cpuMs(clockid_t clock)
{
    timespec now{};
    clock_gettime(clock, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

using Findings = QHash<QString, QList<LintFinding>>;

Findings waitForFindings(LintRun &run)
{
    Findings result;
    QEventLoop loop;
    QObject::connect(&run, &LintRun::finished, &loop, [&](const Findings &byKey) {
        result = byKey;
        loop.quit();
    });
    loop.exec();
    return result;
}

Findings lintAll(const QList<Row> &rows)
{
    LintRun run;
    run.start(rows);
    return waitForFindings(run);
}

// As the window runs it: the rows read from the store batch by batch while they are linted.
Findings lintAllFromStore(const std::shared_ptr<SqlDirectoryStore> &store, int rows)
{
    LintRun run;
    run.start(
        [store](const LintRun::Batch &batch) {
            return store->scanRows(batch, DirectoryStore::kScanBatchRows, DirectoryStore::RowOrder::Any);
        },
        rows);
    return waitForFindings(run);
}

// One line per finding, sorted, so two builds' answers compare with diff.
bool writeFindings(const QString &path, const Findings &byKey)
{
    QStringList lines;
    for (const QList<LintFinding> &list : byKey) {
        for (const LintFinding &f : list)
            lines.append(QStringList{f.key, f.code, f.name, f.severity, f.field, f.message}.join(u'\t'));
    }
    lines.sort();
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(lines.join(u'\n').toUtf8() + '\n');
    return true;
}

// The engine's side of LintController's re-lint after an edit: the index takes the row's
// new edges, the row is linted, and when its key or edges changed, every row reaching it
// gets its link rules checked again.
struct Directory
{
    DirectoryIndex index;
    Findings findings;

    qsizetype edit(const QString &key, const std::optional<Row> &row)
    {
        // Unless its key or edges changed, the rows reaching it keep their link findings.
        const bool moved = row ? index.update(*row) : index.remove(key);
        const Linter linter(index);
        setFindings(key, row ? linter.lint(*row) : QList<LintFinding>());
        const QSet<QString> referrers = moved ? index.reaching({key}) : QSet<QString>();
        for (const QString &referrer : referrers) {
            if (referrer != key)
                setFindings(referrer, linter.relink(referrer, findings.value(referrer)));
        }
        return referrers.size();
    }

    void setFindings(const QString &key, const QList<LintFinding> &found)
    {
        if (found.isEmpty())
            findings.remove(key);
        else
            findings.insert(key, found);
    }
};

// Edits `row` back and forth (`changed` then the original) and times each re-lint.
void benchEdits(Directory &directory, const QString &label, const Row &row, const std::optional<Row> &changed)
{
    std::vector<double> times;
    qsizetype referrers = 0;
    for (int i = 0; i < 200; ++i) {
        QElapsedTimer timer;
        timer.start();
        referrers = directory.edit(row.key, i % 2 ? std::optional<Row>(row) : changed);
        times.push_back(msSince(timer));
    }
    std::printf("re-lint after %s %s (%lld rows relinked): median %.3f ms, max %.3f ms\n",
                qUtf8Printable(label), qUtf8Printable(row.key), qint64(referrers), median(times),
                *std::max_element(times.begin(), times.end()));
}

} // namespace

// Lint-all of 100,000 generated rows through LintRun (target ≤ 1 s on 2 cores) and the
// re-lint after an edit: the row and the rows referencing it (target ≤ 5 ms).
// Usage: bench_lint [FILE.db | postgresql://…] [--findings OUT.tsv] (default: generates 100,000 rows).
int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (const auto exit = BenchCommandLine::check(
            app.arguments(), "bench_lint [FILE.db | postgresql://…] [--findings OUT.tsv]", 1,
            {QStringLiteral("--findings")}))
        return *exit;
    QStringList args = app.arguments().mid(1);
    QString findingsPath;
    if (const qsizetype at = args.indexOf(QStringLiteral("--findings")); at >= 0 && at + 1 < args.size()) {
        findingsPath = args.at(at + 1);
        args.remove(at, 2);
    }
    QTemporaryDir dir;
    const QString path = args.isEmpty() ? dir.filePath(QStringLiteral("big.db")) : args.first();
    if (!args.isEmpty() && !BenchCommandLine::directoryExists(path))
        return 2;
    if (args.isEmpty()) {
        const QString error = FixtureGenerator::makeDatabase(path, 100000);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qUtf8Printable(error));
            return 1;
        }
    }
    const std::shared_ptr<SqlDirectoryStore> store = SqlDirectoryStore::open(path).value();
    // What lint-all in the window pays before it lints: every row read in full, in batches,
    // in the order the store reads fastest.
    std::vector<double> reads;
    for (int i = 0; i < 3; ++i) {
        QElapsedTimer read;
        read.start();
        qsizetype streamed = 0;
        store->scanRows(
            [&streamed](QList<Row> &&batch) {
                streamed += batch.size();
                return true;
            },
            DirectoryStore::kScanBatchRows, DirectoryStore::RowOrder::Any);
        reads.push_back(msSince(read));
        if (i == 0)
            std::printf("read every row (scanRows), %lld rows: ", qint64(streamed));
    }
    std::printf("median of 3 %.0f ms\n", median(reads));
    printFigure("read_all_ms", median(reads));
    const QList<Row> rows = store->allRows().value();

    QElapsedTimer timer;
    timer.start();
    Directory directory{DirectoryIndex::build(rows), {}};
    std::printf("index build alone, %lld rows: %.0f ms\n", qint64(rows.size()), msSince(timer));

    std::vector<double> runs;
    Findings findings;
    const double cpuBefore = cpuMs(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < 7; ++i) {
        timer.restart();
        findings = lintAll(rows);
        runs.push_back(msSince(timer));
    }
    const double cpuPerRun = (cpuMs(CLOCK_PROCESS_CPUTIME_ID) - cpuBefore) / double(runs.size());
    qsizetype count = 0;
    for (const QList<LintFinding> &list : std::as_const(findings))
        count += list.size();
    std::printf("lint-all (LintRun, index included), %d runs: median %.0f ms, best %.0f ms, worst %.0f ms "
                "(CPU %.0f ms a run); %lld findings\n",
                int(runs.size()), median(runs), *std::min_element(runs.begin(), runs.end()),
                *std::max_element(runs.begin(), runs.end()), cpuPerRun, qint64(count));
    printFigure("lint_all_ms", median(runs));
    std::vector<double> streamed;
    for (int i = 0; i < 3; ++i) {
        timer.restart();
        const Findings fromStore = lintAllFromStore(store, int(rows.size()));
        streamed.push_back(msSince(timer));
        if (fromStore != findings) {
            std::fprintf(stderr, "lint-all from the store found other findings than from memory\n");
            return 1;
        }
    }
    std::printf("lint-all read from the store in batches while it lints (as the window runs it), median "
                "of 3: %.0f ms\n",
                median(streamed));
    printFigure("lint_all_streamed_ms", median(streamed));
    if (!findingsPath.isEmpty() && !writeFindings(findingsPath, findings))
        std::fprintf(stderr, "cannot write %s\n", qUtf8Printable(findingsPath));

    timer.restart();
    const double threadBefore = cpuMs(CLOCK_THREAD_CPUTIME_ID);
    const Linter linter(directory.index);
    for (const Row &row : rows) {
        if (QList<LintFinding> found = linter.lint(row); !found.isEmpty())
            directory.findings.insert(row.key, found);
    }
    std::printf(
        "lint-all on one thread (index excluded): %.0f ms (CPU %.0f ms); same findings as LintRun: %s\n",
        msSince(timer), cpuMs(CLOCK_THREAD_CPUTIME_ID) - threadBefore,
        directory.findings == findings ? "yes" : "NO");

    QHash<QString, Row> byKey;
    QString unreferenced;
    QString mostReferenced;
    qsizetype most = 0;
    for (const Row &row : rows) {
        byKey.insert(row.key, row);
        const qsizetype referrers = directory.index.referencing(row.key).size();
        if (referrers == 0 && unreferenced.isEmpty() && row.type == QLatin1String("fn"))
            unreferenced = row.key;
        if (referrers > most) {
            most = referrers;
            mostReferenced = row.key;
        }
    }
    // A keystroke in the content, and deleting the row, which gives every referrer an
    // unknown-key finding (and takes it away again when the row comes back).
    const auto typed = [](Row row) {
        row.content += QStringLiteral("\n# note: edited");
        return std::optional<Row>(row);
    };
    benchEdits(directory, QStringLiteral("a keystroke in"), byKey.value(unreferenced),
               typed(byKey.value(unreferenced)));
    const Row target = byKey.value(mostReferenced);
    std::printf("most referenced row: %s, named by %lld rows\n", qUtf8Printable(mostReferenced),
                qint64(most));
    benchEdits(directory, QStringLiteral("a keystroke in"), target, typed(target));
    benchEdits(directory, QStringLiteral("deleting/restoring"), target, std::nullopt);
    return 0;
}
