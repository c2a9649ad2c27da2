// Start-up as a user waits for it: whole processes, from exec to the screen standing still.
// Runs the real capdesk binary on the sample directory, on 891 and on 100,000 generated
// rows, next to a bare Qt 6 QMainWindow + QTableWidget (bench_bare_window, the floor) and
// DB Browser for SQLite on the same 100,000 rows, each on one Xvfb screen (1280×800) of its
// own, and prints the medians of N runs after one warm-up each: process start → window
// mapped, → first change on screen, → settled (with its range), and peak RSS.
//
// The settle detector watches the screen, not the program: the X server's DAMAGE extension
// on the root window reports every rectangle any program draws. Settled is the last change
// followed by 300 ms without one. The watch goes on to 4 s after exec (--observe MS), and
// changes after the settle are listed, so a late second paint (lint marks, say) is seen.
//
// Usage: bench_startup [--runs N] [--rows N] [--db FILE.db] [--observe MS]
//                      [--capdesk PROGRAM] (another build to time, such as one from before a
//                      change) [--small] (the sample and 891 rows only: no big directory, no
//                      DB Browser)
// Each figure is also printed as a `figure NAME VALUE` line, which
// tests/bench/run_benchmarks.py reads into the README's table.
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"
#include "tests/bench/screenchangewatch.h"
#include "tests/bench/startupbench.h"
#include "tests/bench/xvfbscreen.h"
#include "tests/support/fixturegenerator.h"

#include <QCoreApplication>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

namespace {

QString makeDatabase(const QString &path, int rows)
{
    std::printf("generating %d rows…\n", rows);
    std::fflush(stdout);
    return FixtureGenerator::makeDatabase(path, rows);
}

void printTarget(const char *what, double measured, double limit, const char *unit, const char *target)
{
    std::printf("  %-58s %7.2f%s %s: %s\n", what, measured, unit, target,
                measured <= limit ? "met" : "missed");
}

} // namespace

constexpr const char *kUsage =
    "bench_startup [--runs N] [--rows N] [--db FILE.db] [--observe MS] [--capdesk PROGRAM] [--small]";

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (const auto exit = BenchCommandLine::check(app.arguments(), kUsage, 0,
                                                  {QStringLiteral("--runs"), QStringLiteral("--rows"),
                                                   QStringLiteral("--db"), QStringLiteral("--observe"),
                                                   QStringLiteral("--capdesk")},
                                                  {QStringLiteral("--small")}))
        return *exit;
    const QStringList arguments = QCoreApplication::arguments();
    const auto option = [&arguments](const QString &name, const QString &fallback) {
        const qsizetype at = arguments.indexOf(name);
        return at > 0 && at + 1 < arguments.size() ? arguments.at(at + 1) : fallback;
    };
    const std::optional<int> runsGiven =
        BenchCommandLine::number(arguments, QStringLiteral("--runs"), 5, 1, 100, kUsage);
    const std::optional<int> rowsGiven =
        BenchCommandLine::number(arguments, QStringLiteral("--rows"), 100000, 1, 10000000, kUsage);
    const std::optional<int> observeGiven =
        BenchCommandLine::number(arguments, QStringLiteral("--observe"), 4000, 500, 60000, kUsage);
    if (!runsGiven || !rowsGiven || !observeGiven)
        return 2;
    const int runs = *runsGiven;
    const int rows = *rowsGiven;
    const int observeMs = *observeGiven;
    const bool small = arguments.contains(QStringLiteral("--small"));

    QTemporaryDir folder;
    const QString sample = folder.filePath(QStringLiteral("sample.db"));
    QProcess init;
    init.start(QStringLiteral(CAPDESKCTL_PATH),
               {QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), sample});
    if (!init.waitForFinished(60000) || init.exitCode() != 0) {
        std::fprintf(stderr, "capdeskctl init --sample failed\n");
        return 1;
    }
    const QString medium = folder.filePath(QStringLiteral("891.db"));
    QString big = option(QStringLiteral("--db"), QString());
    const QString bigLabel = big.isEmpty() ? QStringLiteral("%L1 rows").arg(rows) : big;
    if (big.isEmpty())
        big = folder.filePath(QStringLiteral("rows.db"));
    for (const auto &[path, count] : {std::pair{medium, 891}, std::pair{big, rows}}) {
        if (QFile::exists(path) || (small && path == big))
            continue;
        if (const QString error = makeDatabase(path, count); !error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
    }

    XvfbScreen screen;
    if (!screen.start()) {
        std::fprintf(stderr, "Xvfb did not start (apt install xvfb)\n");
        return 1;
    }
    ScreenChangeWatch watch(screen.display());
    if (!watch.error().isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(watch.error()));
        return 1;
    }
    // Settings of their own, so the runs neither read nor change the user's.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("DISPLAY"), screen.display());
    environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    environment.remove(QStringLiteral("CAPDESK_TRACE_STARTUP"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), folder.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), folder.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("XDG_CACHE_HOME"), folder.filePath(QStringLiteral("cache")));
    std::printf("%d runs each after a warm-up, on Xvfb %s (1280×800), %d cores; settled = the last "
                "change on screen (DAMAGE on the root window) before %.0f ms without one\n",
                runs, qPrintable(screen.display()), QThread::idealThreadCount(), StartupBench::kQuietMs);
    std::printf("%-40s %9s %11s %11s %18s\n", "from exec", "mapped", "first change", "settled", "peak RSS");

    const QString capdesk = option(QStringLiteral("--capdesk"), QStringLiteral(CAPDESK_PATH));
    StartupBench bench(watch, environment, folder.filePath(QStringLiteral("stderr.log")), runs, observeMs);
    const auto bare = bench.measure({QStringLiteral("bare"),
                                     QStringLiteral("bare QMainWindow + QTableWidget"),
                                     QStringLiteral(BENCH_BARE_WINDOW_PATH),
                                     {}});
    const auto onSample = bench.measure(
        {QStringLiteral("sample"), QStringLiteral("capdesk, sample (44 rows)"), capdesk, {sample}});
    const auto onMedium =
        bench.measure({QStringLiteral("rows891"), QStringLiteral("capdesk, 891 rows"), capdesk, {medium}});
    if (!bare || !onSample || !onMedium)
        return 1;
    std::optional<StartupBench::Figures> onBig;
    if (!small) {
        onBig = bench.measure(
            {QStringLiteral("big"), QStringLiteral("capdesk, %1").arg(bigLabel), capdesk, {big}});
        if (!onBig)
            return 1;
    }
    // DB Browser opens on its table of rows (-t), as capdesk does; it keeps no settings outside
    // the XDG folders above.
    const QString browser = QStandardPaths::findExecutable(QStringLiteral("sqlitebrowser"));
    std::optional<StartupBench::Figures> onBrowser;
    if (!small && browser.isEmpty()) {
        std::printf("DB Browser for SQLite is not installed (apt install sqlitebrowser): not compared\n");
    } else if (!small) {
        onBrowser = bench.measure({QStringLiteral("dbbrowser"),
                                   QStringLiteral("DB Browser for SQLite, %1").arg(bigLabel),
                                   browser,
                                   {QStringLiteral("-t"), QStringLiteral("directory"), big}});
        if (!onBrowser)
            return 1;
    }

    std::printf("targets (medians of this run):\n");
    printTarget("sample: settled / the bare window's", onSample->settledMs / bare->settledMs, 1.5, "×",
                "≤ 1.5×");
    printTarget("891 rows: settled / the bare window's", onMedium->settledMs / bare->settledMs, 1.5, "×",
                "≤ 1.5×");
    printFigure("sample.settled_per_bare", onSample->settledMs / bare->settledMs);
    printFigure("rows891.settled_per_bare", onMedium->settledMs / bare->settledMs);
    if (onBrowser) {
        // Above the floor: what each program adds to a bare Qt window.
        const double time = (onBig->settledMs - bare->settledMs) / (onBrowser->settledMs - bare->settledMs);
        const double memory =
            (onBig->peakRssMiB - bare->peakRssMiB) / (onBrowser->peakRssMiB - bare->peakRssMiB);
        printTarget("big: (capdesk − bare) / (DB Browser − bare), settled", time, 0.5, "×", "≤ 0.5×");
        printTarget("big: (capdesk − bare) / (DB Browser − bare), peak RSS", memory, 0.5, "×", "≤ 0.5×");
        printFigure("big.settled_above_floor_per_dbbrowser", time);
        printFigure("big.rss_above_floor_per_dbbrowser", memory);
    }
    return 0;
}
