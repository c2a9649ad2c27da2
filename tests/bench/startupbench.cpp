#include "tests/bench/startupbench.h"

#include "tests/bench/benchmeasures.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>

#include <algorithm>
#include <cstdio>

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

} // namespace

StartupBench::StartupBench(ScreenChangeWatch &watch, QProcessEnvironment environment, QString errorLog,
                           int runs, int observeMs)
    : m_watch(watch), m_environment(std::move(environment)), m_errorLog(std::move(errorLog)), m_runs(runs),
      m_observeMs(observeMs)
{}

std::optional<StartupBench::Figures> StartupBench::measure(const Program &program)
{
    std::vector<double> mapped, firstChanges, settles, lastChanges, peaks;
    Run last;
    // The first run warms the page cache and writes the settings a user already has.
    for (int i = 0; i <= m_runs; ++i) {
        std::optional<Run> run = runOnce(program);
        if (!run)
            return std::nullopt;
        if (i == 0)
            continue;
        mapped.push_back(run->mappedMs);
        firstChanges.push_back(run->firstChangeMs);
        settles.push_back(run->settledMs);
        lastChanges.push_back(run->lateChanges.empty() ? run->settledMs : run->lateChanges.back().atMs);
        peaks.push_back(run->peakRssMiB);
        last = std::move(*run);
    }
    const Figures figures{median(mapped), median(firstChanges), median(settles), median(lastChanges),
                          median(peaks)};
    const auto [fastest, slowest] = std::minmax_element(settles.cbegin(), settles.cend());
    std::printf("%-40s %6.0f ms %8.0f ms %8.0f ms (%.0f–%.0f) %8.1f MiB\n", qPrintable(program.label),
                figures.mappedMs, figures.firstChangeMs, figures.settledMs, *fastest, *slowest,
                figures.peakRssMiB);
    for (const LateChange &change : last.lateChanges)
        std::printf("%40s later, in the last run: %.0f ms, %d×%d at (%d, %d)\n", "", change.atMs,
                    change.area.width(), change.area.height(), change.area.x(), change.area.y());
    const QByteArray name = program.name.toLatin1();
    printFigure(name + ".first_change_ms", figures.firstChangeMs);
    printFigure(name + ".settled_ms", figures.settledMs);
    printFigure(name + ".last_change_ms", figures.lastChangeMs);
    printFigure(name + ".peak_rss_mib", figures.peakRssMiB);
    std::fflush(stdout);
    return figures;
}

// One process, watched from exec to m_observeMs; times are from start(), read as the X
// server's reports arrive.
std::optional<StartupBench::Run> StartupBench::runOnce(const Program &program)
{
    m_watch.discardPending();
    QProcess child;
    child.setProcessEnvironment(m_environment);
    child.setStandardOutputFile(QProcess::nullDevice());
    // A file, not a pipe nobody reads while it runs: a chatty child never blocks on it.
    child.setStandardErrorFile(m_errorLog);
    QElapsedTimer clock;
    clock.start();
    child.start(program.path, program.arguments);
    if (!child.waitForStarted(10000)) {
        std::fprintf(stderr, "%s did not start\n", qPrintable(program.path));
        return std::nullopt;
    }
    Run run;
    double lastChangeMs = -1;
    while (msSince(clock) < m_observeMs || run.settledMs < 0) {
        // Without an event loop, QProcess learns of an exit only when asked.
        if (msSince(clock) > 60000 || child.waitForFinished(0))
            break;
        const std::vector<ScreenChangeWatch::Event> events = m_watch.next(10);
        const double now = msSince(clock);
        for (const ScreenChangeWatch::Event &event : events) {
            if (event.kind == ScreenChangeWatch::Event::Kind::WindowMapped) {
                if (run.mappedMs < 0)
                    run.mappedMs = now;
                continue;
            }
            if (run.mappedMs < 0)
                continue;
            if (run.firstChangeMs < 0)
                run.firstChangeMs = now;
            if (run.settledMs < 0)
                lastChangeMs = now;
            else
                run.lateChanges.push_back({now, event.area});
        }
        if (run.settledMs < 0 && lastChangeMs >= 0 && now - lastChangeMs >= kQuietMs)
            run.settledMs = lastChangeMs;
    }
    run.peakRssMiB = peakRssMiBOf(QString::number(child.processId()));
    child.terminate();
    if (!child.waitForFinished(5000))
        child.kill();
    if (run.settledMs < 0) {
        QFile errors(m_errorLog);
        errors.open(QIODevice::ReadOnly);
        std::fprintf(stderr, "%s did not settle: %s\n", qPrintable(program.path),
                     errors.readAll().constData());
        return std::nullopt;
    }
    return run;
}
