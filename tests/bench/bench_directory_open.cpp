// Opens a 100,000-row production-shaped directory in the real main window and prints:
// open → first painted table, one filter keystroke, a sort, a content search, a scroll
// to the end, and peak RSS. Usage: bench_directory_open [FILE.db | postgresql://…] (default: generates one).
#include "dispatch/directory/localdirectory.h"
#include "dispatch/store/sqldirectorystore.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"
#include "tests/bench/paintprobe.h"
#include "tests/support/fixturegenerator.h"
#include "views/common/directorysession.h"
#include "views/shell/mainwindow.h"
#include "views/table/directorytableview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char *argv[])
{
    paintOffscreenWithoutDisplay();
    QApplication app(argc, argv);
    if (const auto exit =
            BenchCommandLine::check(app.arguments(), "bench_directory_open [FILE.db | postgresql://…]", 1))
        return *exit;
    QTemporaryDir dir;
    QString path = argc > 1 ? QString::fromLocal8Bit(argv[1]) : dir.filePath(QStringLiteral("bench.db"));
    if (argc > 1 && !BenchCommandLine::directoryExists(path))
        return 2;
    if (argc <= 1) {
        std::printf("generating 100,000 rows…\n");
        const QString error = FixtureGenerator::makeDatabase(path, 100000);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        // The first open migrates the production file; the app pays that once per file.
        QElapsedTimer migrate;
        migrate.start();
        if (!SqlDirectoryStore::open(path).ok())
            return 1;
        std::printf("first open with migration:      %7.1f ms\n", double(migrate.nsecsElapsed()) / 1e6);
    }

    QElapsedTimer timer;
    timer.start();
    auto opened = SqlDirectoryStore::open(path);
    if (!opened.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error().message));
        return 1;
    }
    const double openMs = double(timer.nsecsElapsed()) / 1e6;
    DirectorySession session;
    if (session.open(LocalDirectory::over(opened.value())).isError())
        return 1;
    const double firstPageMs = double(timer.nsecsElapsed()) / 1e6;
    DirectoryDocument &document = *session.document();
    MainWindow window(session);
    window.resize(1440, 900);
    // The bench reaches into the window for the table; product code never does.
    QTableView &view = *window.findChild<DirectoryTableView *>();
    PaintProbe probe;
    view.viewport()->installEventFilter(&probe);
    window.show();
    waitForPaint(view, probe);
    const double paintedMs = double(timer.nsecsElapsed()) / 1e6;
    while (document.tableModel()->isLoading())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    waitForPaint(view, probe);
    const double fullMs = double(timer.nsecsElapsed()) / 1e6;

    std::vector<double> keystrokes;
    std::vector<double> filterOnly;
    const QString typed = QStringLiteral("search_order");
    for (int round = 0; round < 3; ++round) {
        for (int n = 1; n <= typed.size(); ++n) {
            QElapsedTimer key;
            key.start();
            DirectoryFilter filter = document.tableModel()->filter();
            filter.text = typed.left(n);
            document.tableModel()->setFilter(filter);
            filterOnly.push_back(double(key.nsecsElapsed()) / 1e6);
            view.viewport()->repaint();
            keystrokes.push_back(double(key.nsecsElapsed()) / 1e6);
        }
        document.tableModel()->setFilter({});
    }

    QElapsedTimer sort;
    sort.start();
    view.sortByColumn(DirectoryTableModel::TargetColumn, Qt::DescendingOrder);
    view.viewport()->repaint();
    const double sortMs = double(sort.nsecsElapsed()) / 1e6;

    QElapsedTimer scroll;
    scroll.start();
    view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum());
    view.viewport()->repaint();
    const double scrollMs = double(scroll.nsecsElapsed()) / 1e6;

    // The owner's browsing session ends here; bulk edits below hold full rows for undo.
    const double browsingRss = peakRssMiB();

    QStringList selection;
    for (int row = 0; row < document.tableModel()->rowCount() && selection.size() < 10000; ++row)
        selection.append(document.tableModel()->keyAt(row));
    QElapsedTimer bulk;
    bulk.start();
    document.setEnabled(selection, false);
    view.viewport()->repaint();
    const double bulkMs = double(bulk.nsecsElapsed()) / 1e6;
    bulk.restart();
    document.undoStack()->undo();
    view.viewport()->repaint();
    const double undoMs = double(bulk.nsecsElapsed()) / 1e6;

    QElapsedTimer content;
    content.start();
    const auto hits = opened.value()->keysWithContent(QStringLiteral("careful assistant"));
    const double contentMs = double(content.nsecsElapsed()) / 1e6;

    std::printf("rows:                           %7d\n", document.tableModel()->totalRows());
    std::printf("open file (schema check):       %7.1f ms\n", openMs);
    std::printf("open + first page of rows:      %7.1f ms\n", firstPageMs);
    std::printf("open to first painted table:    %7.1f ms\n", paintedMs);
    std::printf("open to all rows painted:       %7.1f ms\n", fullMs);
    std::printf("filter keystroke (median, max): %7.2f ms, %.2f ms over %zu keystrokes\n", median(keystrokes),
                *std::max_element(keystrokes.begin(), keystrokes.end()), keystrokes.size());
    std::printf("  of which the model's filter:  %7.2f ms median\n", median(filterOnly));
    std::printf("sort by target + repaint:       %7.1f ms\n", sortMs);
    std::printf("scroll to end + repaint:        %7.1f ms\n", scrollMs);
    std::printf("disable 10,000 rows, then undo:  %7.1f ms, %.1f ms\n", bulkMs, undoMs);
    std::printf("content search (background):    %7.1f ms, %lld hits\n", contentMs,
                hits.ok() ? qlonglong(hits.value().size()) : -1LL);
    std::printf("summary arena:                  %7.1f MiB\n",
                double(document.tableModel()->summaries().arenaBytes()) / 1048576.0);
    std::printf("peak RSS (open, filter, sort):  %7.1f MiB\n", browsingRss);
    std::printf("peak RSS (after bulk edit):     %7.1f MiB\n", peakRssMiB());
    printFigure("first_paint_ms", paintedMs);
    printFigure("all_rows_ms", fullMs);
    printFigure("filter_median_ms", median(keystrokes));
    printFigure("filter_max_ms", *std::max_element(keystrokes.begin(), keystrokes.end()));
    printFigure("sort_ms", sortMs);
    printFigure("browsing_rss_mib", browsingRss);
    return 0;
}
