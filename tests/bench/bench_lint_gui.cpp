// The lint GUI over a 100,000-row production-shaped directory: lint-all from the click to
// the painted lint column (the read, the index, the parallel run, the column update), and
// the re-lint after a keystroke (the edited row and its referrers, then the repaint).
// Usage: bench_lint_gui [FILE.db] (default: generates one).
#include "directorydocument.h"
#include "directorytablemodel.h"
#include "directorytableview.h"
#include "fixturegenerator.h"
#include "lintcontroller.h"
#include "lintstate.h"
#include "sqlitedirectorystore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
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

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QTemporaryDir dir;
    QString path = argc > 1 ? QString::fromLocal8Bit(argv[1]) : dir.filePath(QStringLiteral("bench.db"));
    if (argc <= 1) {
        const QString error = FixtureGenerator::makeDatabase(path, 100000);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "cannot generate: %s\n", qPrintable(error));
            return 1;
        }
    }
    auto opened = SqliteDirectoryStore::open(path);
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
    lint.setDocument(&document);

    QElapsedTimer clock;
    clock.start();
    lint.lintAll();
    const double started = clock.nsecsElapsed() / 1e6;
    waitFor(&lint, &LintController::finished);
    const double linted = clock.nsecsElapsed() / 1e6;
    view.viewport()->repaint();
    const double painted = clock.nsecsElapsed() / 1e6;
    std::printf("rows %d, with findings %lld\n", document.tableModel()->totalRows(),
                qlonglong(lint.state()->rowsWithFindings()));
    std::printf("lint-all: rows read (GUI thread) %.0f ms, to results %.0f ms, to painted column %.0f ms\n",
                started, linted, painted);

    waitFor(&lint, &LintController::registryTotalChanged);
    std::printf("%s, summed on the pool by %.0f ms\n", qPrintable(lint.registryTotalText()),
                clock.nsecsElapsed() / 1e6);

    // A keystroke that toggles an error on a row shown in the view, so every re-lint
    // changes what is painted.
    const QString key = document.tableModel()->keyAt(0);
    const QString content = document.row(key)->content;
    std::vector<double> edits;
    std::vector<double> keystrokes;
    for (int i = 0; i < 21; ++i) {
        clock.restart();
        document.setField(key, QStringLiteral("content"),
                          i % 2 ? content
                                : QStringLiteral("# WHEN_TO_USE: never\n") + content.section(u'\n', 1));
        edits.push_back(clock.nsecsElapsed() / 1e6);
        waitFor(lint.state(), &LintState::rowChanged);
        view.viewport()->repaint();
        keystrokes.push_back(clock.nsecsElapsed() / 1e6);
    }
    std::printf("keystroke → re-lint → repaint: median %.2f ms, worst %.2f ms (the edit itself, document and "
                "table: median %.2f ms)\n",
                median(keystrokes), *std::max_element(keystrokes.begin(), keystrokes.end()), median(edits));
    return 0;
}
