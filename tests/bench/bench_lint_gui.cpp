// The lint GUI over a 100,000-row production-shaped directory: lint-all from the click to
// the painted lint column (the read, the index and the lint all run on the pool), how long
// the GUI thread is kept from its event loop meanwhile, and the re-lint after an edit (the
// edited row, and the rows reaching it when its key or edges change), then the repaint.
// Usage: bench_lint_gui [FILE.db | postgresql://…] (default: generates one).
#include "dispatch/store/sqldirectorystore.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "models/lintcontroller.h"
#include "models/lintstate.h"
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"
#include "tests/support/fixturegenerator.h"
#include "views/table/directorytableview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double maxOf(const std::vector<double> &values)
{
    return *std::max_element(values.begin(), values.end());
}

// Runs the event loop until `signal` fires (or 60 s pass).
template<typename Sender, typename Signal>
void waitFor(Sender *sender, Signal signal)
{
    QEventLoop loop;
    QObject::connect(sender, signal, &loop, &QEventLoop::quit);
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec();
}

// A timer that should fire every 2 ms: the gaps between its ticks are the time the GUI
// thread spent on something else (and what a user would see as a frozen window).
class Heartbeat final
{
public:
    Heartbeat()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(2);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const double now = msSince(m_clock);
            m_longest = std::max(m_longest, now - m_last);
            if (now - m_last > 16)
                m_overFrame += now - m_last;
            m_last = now;
        });
    }

    void start()
    {
        m_clock.start();
        m_last = 0;
        m_longest = 0;
        m_overFrame = 0;
        m_timer.start();
    }
    void stop()
    {
        m_timer.stop();
        const double now = msSince(m_clock);
        m_longest = std::max(m_longest, now - m_last);
    }
    double longest() const { return m_longest; }
    double overFrame() const { return m_overFrame; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_last = 0;
    double m_longest = 0;
    double m_overFrame = 0;
};

struct Timings
{
    std::vector<double> edit; // the edit itself: document and table
    std::vector<double> relint; // the re-lint, with the lint column's update
    std::vector<double> total; // to re-linted and repainted
};

// Applies edit(i) 21 times; the zero re-lint delay lets one pass of the event loop run
// the re-lint, then the view repaints.
Timings timeEdits(DirectoryTableView &view, const std::function<void(int)> &edit)
{
    Timings timings;
    for (int i = 0; i < 21; ++i) {
        QElapsedTimer clock;
        clock.start();
        edit(i);
        const double edited = msSince(clock);
        timings.edit.push_back(edited);
        QCoreApplication::processEvents();
        timings.relint.push_back(msSince(clock) - edited);
        view.viewport()->repaint();
        timings.total.push_back(msSince(clock));
    }
    return timings;
}

void report(const char *what, const Timings &timings)
{
    std::printf(
        "%s: re-lint median %.2f ms, max %.2f ms; edit → re-lint → repaint median %.2f ms, max %.2f ms "
        "(the edit itself, document and table: median %.2f ms)\n",
        what, median(timings.relint), maxOf(timings.relint), median(timings.total), maxOf(timings.total),
        median(timings.edit));
}

} // namespace

int main(int argc, char **argv)
{
    paintOffscreenWithoutDisplay();
    QApplication app(argc, argv);
    if (const auto exit =
            BenchCommandLine::check(app.arguments(), "bench_lint_gui [FILE.db | postgresql://…]", 1))
        return *exit;
    QTemporaryDir dir;
    QString path = argc > 1 ? QString::fromLocal8Bit(argv[1]) : dir.filePath(QStringLiteral("bench.db"));
    if (argc > 1 && !BenchCommandLine::directoryExists(path))
        return 2;
    if (argc <= 1) {
        const QString error = FixtureGenerator::makeDatabase(path, 100000);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "cannot generate: %s\n", qPrintable(error));
            return 1;
        }
    }
    auto opened = SqlDirectoryStore::open(path);
    if (!opened.ok()) {
        std::fprintf(stderr, "cannot open: %s\n", qPrintable(opened.error().message));
        return 1;
    }
    DirectoryDocument document(opened.value());
    if (document.load().isError())
        return 1;
    DirectoryTableView view;
    view.setDocument(&document);
    view.resize(1200, 800);
    view.show();
    LintController lint;
    lint.setRelintDelay(0);
    lint.setDocument(&document, true);

    // The same measure with nothing running: what the machine's load alone costs.
    Heartbeat heartbeat;
    heartbeat.start();
    QEventLoop idle;
    QTimer::singleShot(3000, &idle, &QEventLoop::quit);
    idle.exec();
    heartbeat.stop();
    std::printf("idle for 3 s: longest GUI stall %.1f ms, %.0f ms in stalls over a frame (16 ms)\n",
                heartbeat.longest(), heartbeat.overFrame());

    std::vector<double> clicks;
    std::vector<double> results;
    std::vector<double> painted;
    std::vector<double> stalls;
    for (int run = 0; run < 5; ++run) {
        heartbeat.start();
        QElapsedTimer clock;
        clock.start();
        lint.lintAll();
        clicks.push_back(msSince(clock));
        waitFor(&lint, &LintController::finished);
        results.push_back(msSince(clock));
        view.viewport()->repaint();
        painted.push_back(msSince(clock));
        // The registry total is summed on the pool next; the runs do not overlap it.
        waitFor(&lint, &LintController::registryTotalChanged);
        heartbeat.stop();
        stalls.push_back(heartbeat.longest());
        std::printf(
            "lint-all %d: GUI thread in lintAll() %.1f ms, results %.0f ms, painted %.0f ms; longest GUI "
            "stall %.1f ms, %.0f ms in stalls over a frame (16 ms); %s\n",
            run + 1, clicks.back(), results.back(), painted.back(), heartbeat.longest(),
            heartbeat.overFrame(), qPrintable(lint.registryTotalText()));
    }
    std::printf("rows %d, with findings %lld\n", document.tableModel()->totalRows(),
                qlonglong(lint.state()->rowsWithFindings()));
    std::printf("lint-all, %d runs: median to results %.0f ms, to painted column %.0f ms; longest GUI stall "
                "median %.1f ms, max %.1f ms\n",
                int(results.size()), median(results), median(painted), median(stalls), maxOf(stalls));
    printFigure("painted_median_ms", median(painted));
    printFigure("stall_max_ms", maxOf(stalls));

    // A keystroke that toggles an error on a row no other row names, shown in the view.
    QString unreferenced;
    for (int row = 0; row < document.tableModel()->rowCount() && unreferenced.isEmpty(); ++row) {
        const QString key = document.tableModel()->keyAt(row);
        if (lint.index().referencing(key).isEmpty())
            unreferenced = key;
    }
    const QString content = document.row(unreferenced)->content;
    const QString broken = QStringLiteral("# WHEN_TO_USE: never\n") + content.section(u'\n', 1);
    report(qPrintable(QStringLiteral("keystroke in %1 (named by no row)").arg(unreferenced)),
           timeEdits(view, [&](int i) {
               document.setField(unreferenced, QStringLiteral("content"), i % 2 ? content : broken);
           }));

    // The row the most rows name: a keystroke in its content, then deleting it and undoing
    // that, which relinks every row naming it.
    QString most;
    qsizetype referrers = 0;
    for (int row = 0; row < document.tableModel()->rowCount(); ++row) {
        const QString key = document.tableModel()->keyAt(row);
        if (const qsizetype count = lint.index().referencing(key).size(); count > referrers) {
            referrers = count;
            most = key;
        }
    }
    const QString mostContent = document.row(most)->content;
    report(qPrintable(QStringLiteral("keystroke in %1 (named by %2 rows)").arg(most).arg(referrers)),
           timeEdits(view, [&](int i) {
               document.setField(most, QStringLiteral("content"), i % 2 ? mostContent : mostContent + u'x');
           }));
    report(qPrintable(QStringLiteral("deleting %1 / undo").arg(most)), timeEdits(view, [&](int i) {
               if (i % 2)
                   document.undoStack()->undo();
               else
                   document.deleteRows({most});
           }));
    return 0;
}
