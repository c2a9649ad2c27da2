// Start-up as a user waits for it: whole processes, from exec to the screen standing still.
// Runs the real capdesk binary on the sample directory and on 100,000 generated rows, next
// to a bare Qt 6 QMainWindow + QTableWidget (bench_bare_window), each
// on its own Xvfb screen (1280×800), and prints the medians of N runs after one warm-up:
// process start → first table paint, → settled (with its range), and peak RSS.
//
// Settled is the last paint of any widget before 300 ms with none (StartupTrace's rule,
// which the bare window shares): when category counts or lint marks land after the
// first frame, that second paint is what the user sees settle. Both ends are read off the
// child's CAPDESK_TRACE_STARTUP lines as they arrive, so the time before main() (exec,
// dynamic loading) is counted as the user feels it.
//
// Usage: bench_startup [--runs N] [--rows N] [--db FILE.db] [--capdesk PROGRAM] (another
// build to time, such as one from before a change)
#include "tests/bench/benchmeasures.h"
#include "tests/bench/xvfbscreen.h"
#include "tests/support/fixturegenerator.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

struct Run
{
    double firstPaintMs = 0;
    double settledMs = 0;
    double peakRssMiB = 0;
};

// One process to its settled line. Times are the parent's, from start(), taken as each
// line is read; the settled one is moved back by how long after the last paint the child
// printed it.
std::optional<Run> runOnce(const QString &program, const QStringList &arguments,
                           const QProcessEnvironment &environment)
{
    static const QRegularExpression settled(QStringLiteral(
        R"(capdesk startup:\s+([0-9.]+) ms  settled \(the last paint; none for \d+ ms after, printed at ([0-9.]+) ms\))"));
    QProcess child;
    child.setProcessEnvironment(environment);
    child.setProcessChannelMode(QProcess::SeparateChannels);
    child.setStandardOutputFile(QProcess::nullDevice());
    child.setReadChannel(QProcess::StandardError);
    QElapsedTimer clock;
    clock.start();
    child.start(program, arguments);
    if (!child.waitForStarted(10000))
        return std::nullopt;
    Run run;
    QString printed;
    bool done = false;
    while (!done && clock.elapsed() < 60000) {
        if (!child.canReadLine() && !child.waitForReadyRead(1000)) {
            if (child.state() == QProcess::NotRunning)
                break;
            continue;
        }
        const double now = double(clock.nsecsElapsed()) / 1e6;
        while (child.canReadLine()) {
            const QString line = QString::fromUtf8(child.readLine());
            printed += line;
            if (line.contains(QLatin1String("first table paint")))
                run.firstPaintMs = now;
            if (const QRegularExpressionMatch end = settled.match(line); end.hasMatch()) {
                run.settledMs = now - (end.captured(2).toDouble() - end.captured(1).toDouble());
                run.peakRssMiB = peakRssMiBOf(QString::number(child.processId()));
                done = true;
            }
        }
    }
    child.terminate();
    if (!child.waitForFinished(5000))
        child.kill();
    if (!done) {
        std::fprintf(stderr, "%s did not settle: %s%s\n", qPrintable(program), qPrintable(printed),
                     child.readAllStandardError().constData());
        return std::nullopt;
    }
    return run;
}

bool measure(const char *label, const QString &program, const QStringList &arguments,
             const QProcessEnvironment &environment, int runs)
{
    std::vector<double> firstPaints;
    std::vector<double> settles;
    std::vector<double> peaks;
    // The first run warms the page cache and writes the settings a user already has.
    for (int i = 0; i <= runs; ++i) {
        const std::optional<Run> run = runOnce(program, arguments, environment);
        if (!run)
            return false;
        if (i == 0)
            continue;
        firstPaints.push_back(run->firstPaintMs);
        settles.push_back(run->settledMs);
        peaks.push_back(run->peakRssMiB);
    }
    const auto [fastest, slowest] = std::minmax_element(settles.cbegin(), settles.cend());
    std::printf("%-34s first paint %6.0f ms · settled %6.0f ms (%.0f–%.0f) · peak RSS %5.1f MiB\n", label,
                median(firstPaints), median(settles), *fastest, *slowest, median(peaks));
    std::fflush(stdout);
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = QCoreApplication::arguments();
    const auto option = [&arguments](const QString &name, const QString &fallback) {
        const qsizetype at = arguments.indexOf(name);
        return at > 0 && at + 1 < arguments.size() ? arguments.at(at + 1) : fallback;
    };
    const int runs = std::clamp(option(QStringLiteral("--runs"), QStringLiteral("5")).toInt(), 1, 100);
    const int rows =
        std::clamp(option(QStringLiteral("--rows"), QStringLiteral("100000")).toInt(), 1, 10000000);

    QTemporaryDir folder;
    const QString sample = folder.filePath(QStringLiteral("sample.db"));
    QProcess init;
    init.start(QStringLiteral(CAPDESKCTL_PATH),
               {QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), sample});
    if (!init.waitForFinished(60000) || init.exitCode() != 0) {
        std::fprintf(stderr, "capdeskctl init --sample failed\n");
        return 1;
    }
    QString big = option(QStringLiteral("--db"), QString());
    const QString bigLabel = big.isEmpty() ? QStringLiteral("capdesk, %L1 rows").arg(rows)
                                           : QStringLiteral("capdesk, %1").arg(big);
    if (big.isEmpty()) {
        big = folder.filePath(QStringLiteral("rows.db"));
        std::printf("generating %d rows…\n", rows);
        std::fflush(stdout);
        if (const QString error = FixtureGenerator::makeDatabase(big, rows); !error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
    }

    XvfbScreen screen;
    if (!screen.start()) {
        std::fprintf(stderr, "Xvfb did not start (apt install xvfb)\n");
        return 1;
    }
    // Settings of its own, so the runs neither read nor change the user's.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("DISPLAY"), screen.display());
    environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    environment.insert(QStringLiteral("CAPDESK_TRACE_STARTUP"), QStringLiteral("1"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), folder.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), folder.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("XDG_CACHE_HOME"), folder.filePath(QStringLiteral("cache")));
    std::printf("%d runs each after a warm-up, on Xvfb %s (1280×800), %d cores\n", runs,
                qPrintable(screen.display()), QThread::idealThreadCount());
    const QString capdesk = option(QStringLiteral("--capdesk"), QStringLiteral(CAPDESK_PATH));
    const bool ok = measure("bare QMainWindow + QTableWidget", QStringLiteral(BENCH_BARE_WINDOW_PATH), {},
                            environment, runs)
                    && measure("capdesk, sample (44 rows)", capdesk, {sample}, environment, runs)
                    && measure(qPrintable(bigLabel), capdesk, {big}, environment, runs);
    return ok ? 0 : 1;
}
