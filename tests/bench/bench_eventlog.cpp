// Imports a 100,000-row production-shaped directory into a fresh file (one
// DIRECTORY_MUTATE event per row) and verifies the resulting event log, printing both
// times. Usage: bench_eventlog [ROWS] (default 100000).
#include "dispatch/store/eventlog.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"
#include "tests/support/fixturegenerator.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>

constexpr const char *kUsage = "bench_eventlog [ROWS]";

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int exitCode = 0;
    const std::optional<int> counted = BenchCommandLine::rowsOnly(app.arguments(), 100000, kUsage, exitCode);
    if (!counted)
        return exitCode;
    const int rows = *counted;
    QTemporaryDir dir;
    const QString source = dir.filePath(QStringLiteral("source.db"));
    const QString error = FixtureGenerator::makeDatabase(source, rows);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    auto from = SqlDirectoryStore::open(source);
    auto to = SqlDirectoryStore::open(dir.filePath(QStringLiteral("target.db")));
    if (!from.ok() || !to.ok())
        return 1;
    const QList<Row> all = from.value()->allRows().value();

    QElapsedTimer timer;
    timer.start();
    const StoreError imported = to.value()->importRows(all);
    const qint64 importMs = timer.restart();
    if (imported.isError()) {
        std::fprintf(stderr, "%s\n", qPrintable(imported.message));
        return 1;
    }
    const StoreResult<EventLog::Verification> verified = EventLog(to.value()->database()).verify();
    const qint64 verifyMs = timer.elapsed();
    if (!verified.ok() || !verified.value().intact)
        return 1;
    std::printf("import %d rows with events: %lld ms\nverify %lld events: %lld ms\n", rows,
                static_cast<long long>(importMs), static_cast<long long>(verified.value().checked),
                static_cast<long long>(verifyMs));
    printFigure("verify_ms", double(verifyMs));
    printFigure("verified_events", double(verified.value().checked));
    return 0;
}
