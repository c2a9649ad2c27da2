// The SQLite change feed on a production-shaped directory (default 100,000 rows): the
// cost of a poll when nothing changed (PRAGMA data_version), when a commit changed no row
// (a receipt's), when one row changed (written by a second connection, as another
// process would), and of a complete listing; then what the outside-write triggers add
// to a bulk import. Usage: bench_change_feed [ROWS] (default 100000).
#include "dispatch/store/sqldirectorystore.h"
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"
#include "tests/support/fixturegenerator.h"
#include "tests/support/rawsql.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

struct Spread
{
    double median = 0;
    double p99 = 0;
    double max = 0;
};

Spread spreadOf(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 99 / 100)], ms.back()};
}

// `figure` names the median for run_benchmarks.py.
void print(const char *what, const char *figure, const Spread &spread, std::size_t runs)
{
    std::printf("%-52s median %8.3f ms  p99 %8.3f ms  max %8.3f ms  (%zu polls)\n", what, spread.median,
                spread.p99, spread.max, runs);
    printFigure(figure, spread.median);
}

// Times `poll` `runs` times, each after `before` (not timed).
Spread timePolls(int runs, const std::function<void()> &before, const std::function<bool()> &poll)
{
    std::vector<double> ms;
    ms.reserve(std::size_t(runs));
    for (int i = 0; i < runs; ++i) {
        before();
        QElapsedTimer timer;
        timer.start();
        if (!poll()) {
            std::fprintf(stderr, "a poll failed\n");
            std::exit(1);
        }
        ms.push_back(msSince(timer));
    }
    return spreadOf(ms);
}

double importMs(const QString &path, const QList<Row> &rows, bool dropTriggers)
{
    auto opened = SqlDirectoryStore::open(path);
    if (!opened.ok())
        return -1;
    if (dropTriggers) {
        const QString failure = RawSql::exec(path, {QStringLiteral("DROP TRIGGER directory_outside_insert")});
        if (!failure.isEmpty())
            return -1;
    }
    QElapsedTimer timer;
    timer.start();
    const StoreError error = opened.value()->importRows(rows);
    return error.isError() ? -1 : msSince(timer);
}

} // namespace

constexpr const char *kUsage = "bench_change_feed [ROWS]";

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int exitCode = 0;
    const std::optional<int> counted = BenchCommandLine::rowsOnly(app.arguments(), 100000, kUsage, exitCode);
    if (!counted)
        return exitCode;
    const int rows = *counted;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("directory.db"));
    const QString error = FixtureGenerator::makeDatabase(path, rows);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    auto opened = SqlDirectoryStore::open(path);
    auto other = SqlDirectoryStore::open(path); // the other process's connection
    if (!opened.ok() || !other.ok())
        return 1;
    SqlDirectoryStore &store = *opened.value();
    const QStringList keys = [&] {
        QStringList all;
        store.scanSummaries([&](const RowSummary &summary) { all.append(summary.key); });
        return all;
    }();
    std::printf("%d rows\n", int(keys.size()));

    QByteArray cursor = store.changesSince(QByteArray()).value().cursor;
    const auto pollAgain = [&](bool expectUnchanged) {
        const StoreResult<DirectoryChanges> answer = store.changesSince(cursor);
        if (!answer.ok() || answer.value().unchanged != expectUnchanged || answer.value().complete)
            return false;
        cursor = answer.value().cursor;
        return true;
    };

    print("unchanged (data_version only)", "unchanged_median_ms",
          timePolls(
              2000, [] {}, [&] { return pollAgain(true); }),
          2000);

    int stamp = 0;
    const auto receiptLikeCommit = [&] {
        RawSql::exec(path, {QStringLiteral("INSERT INTO signing_keys (key_id, public_key_pem, created_at) "
                                           "VALUES ('bench-%1', 'pem', 't')")
                                .arg(++stamp)});
    };
    print("a commit that changed no row (a receipt's)", "receipt_commit_median_ms",
          timePolls(200, receiptLikeCommit, [&] { return pollAgain(true); }), 200);

    int edited = 0;
    const auto editOneRow = [&] {
        const QString key = keys.at((edited++ * 7919) % keys.size());
        other.value()->patch(key, {{QStringLiteral("planner_rank"), edited}});
    };
    print("one row changed by another connection", "row_changed_median_ms",
          timePolls(200, editOneRow, [&] { return pollAgain(false); }), 200);

    const Spread listing = timePolls(
        5, [] {},
        [&] {
            const StoreResult<DirectoryChanges> answer = store.changesSince(QByteArrayLiteral("garbled"));
            return answer.ok() && answer.value().complete && answer.value().changed.size() == keys.size();
        });
    print("complete listing (a cursor it cannot read)", "complete_listing_median_ms", listing, 5);

    const QList<Row> all = store.allRows().value();
    const double withTriggers = importMs(dir.filePath(QStringLiteral("with.db")), all, false);
    const double withoutTriggers = importMs(dir.filePath(QStringLiteral("without.db")), all, true);
    std::printf("import %d rows with events: %.0f ms; with the insert trigger dropped: %.0f ms\n",
                int(all.size()), withTriggers, withoutTriggers);
    return 0;
}
