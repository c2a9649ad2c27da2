#pragma once

#include "tests/bench/screenchangewatch.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

// Times programs from exec to the screen standing still, each as a whole process on the
// screen `watch` watches: settled is the last change followed by kQuietMs without one.
// Each program runs once to warm the page cache and write its settings, then `runs` times;
// the medians are printed, with the changes after the settle seen in the last run, and as
// `figure` lines for run_benchmarks.py.
class StartupBench final
{
public:
    static constexpr double kQuietMs = 300;

    struct Program
    {
        QString name; // in figure lines
        QString label;
        QString path;
        QStringList arguments;
    };

    struct Figures
    {
        double mappedMs;
        double firstChangeMs;
        double settledMs;
        double lastChangeMs; // within the watch, later changes included
        double peakRssMiB;
    };

    StartupBench(ScreenChangeWatch &watch, QProcessEnvironment environment, QString errorLog, int runs,
                 int observeMs);

    std::optional<Figures> measure(const Program &program);

private:
    struct LateChange
    {
        double atMs;
        QRect area;
    };

    struct Run
    {
        double mappedMs = -1;
        double firstChangeMs = -1;
        double settledMs = -1;
        double peakRssMiB = 0;
        std::vector<LateChange> lateChanges;
    };

    std::optional<Run> runOnce(const Program &program);

    ScreenChangeWatch &m_watch;
    QProcessEnvironment m_environment;
    QString m_errorLog; // the child's stderr, read only when it fails
    int m_runs;
    int m_observeMs;
};
