// Opens the receipt viewer on 100,000 signed receipts and prints: load to first painted
// table, full load, a filter keystroke with repaint (median, max), selecting a receipt
// (details, signature check, tree, plot, all repainted), a scroll to the end, and peak RSS.
// Usage: bench_receipt_viewer [FILE.db] (default: generates one).
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/sqldirectorystore.h"
#include "models/receipttablemodel.h"
#include "tests/bench/benchmeasures.h"
#include "tests/bench/paintprobe.h"
#include "tests/support/receiptfixture.h"
#include "views/common/messageboxprompter.h"
#include "views/receipts/receiptfilterbar.h"
#include "views/receipts/receiptviewer.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

// Generating the file is not what is measured: give its memory back and restart the peak.
void forgetGeneration()
{
    malloc_trim(0);
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

QString generate(const QString &path, int receipts)
{
    auto store = SqlDirectoryStore::open(path);
    if (!store.ok())
        return store.error().message;
    QElapsedTimer timer;
    timer.start();
    const QString error =
        ReceiptFixture::insert(store.value()->database(), 0, receipts, 500, SigningKey::generate());
    std::printf("generate + sign %d receipts:    %7.0f ms\n", receipts, msSince(timer));
    return error;
}

// One keystroke at a time, as typed into `edit`, each followed by the repaint it causes.
void type(QLineEdit *edit, const QString &text, QTableView &view, std::vector<double> *times)
{
    for (int n = 1; n <= text.size(); ++n) {
        QElapsedTimer key;
        key.start();
        edit->setText(text.left(n));
        view.viewport()->repaint();
        times->push_back(msSince(key));
    }
    edit->clear();
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTemporaryDir dir;
    const QString path =
        argc > 1 ? QString::fromLocal8Bit(argv[1]) : dir.filePath(QStringLiteral("bench.db"));
    if (argc <= 1) {
        const QString error = generate(path, 100000);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        forgetGeneration();
    }

    QElapsedTimer timer;
    timer.start();
    auto opened = SqlDirectoryStore::open(path);
    if (!opened.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error().message));
        return 1;
    }
    auto ledger = std::make_shared<DirectoryLedger>(opened.value(), DirectoryLedger::KeyPlacement::FileOnly);
    MessageBoxPrompter prompter(nullptr);
    ReceiptViewer viewer(ledger, prompter);
    viewer.resize(1440, 900);
    QTableView &view = *viewer.table();
    PaintProbe probe;
    view.viewport()->installEventFilter(&probe);
    viewer.show();
    waitForPaint(view, probe);
    const double paintedMs = msSince(timer);
    // Wait idle, as the GUI thread would: spinning here would take a core from the reader.
    if (viewer.model()->isLoading()) {
        QEventLoop loaded;
        QObject::connect(viewer.model(), &ReceiptTableModel::loadFinished, &loaded, &QEventLoop::quit);
        loaded.exec();
    }
    waitForPaint(view, probe);
    const double fullMs = msSince(timer);

    std::vector<double> keyStrokes;
    std::vector<double> searchStrokes;
    const QString someId = viewer.model()->invocationIdAt(viewer.model()->rowCount() / 2);
    for (int round = 0; round < 3; ++round) {
        type(viewer.filterBar()->keyEdit(), QStringLiteral("rk_0123"), view, &keyStrokes);
        type(viewer.filterBar()->searchEdit(), someId, view, &searchStrokes);
    }

    std::vector<double> selections;
    for (int row = 1000; row < 100000 && row < viewer.model()->rowCount(); row += 9000) {
        QElapsedTimer select;
        select.start();
        viewer.showInvocation(viewer.model()->invocationIdAt(row));
        viewer.repaint(); // every pane changes: details, tree, plot and the table's selection
        selections.push_back(msSince(select));
    }

    QElapsedTimer scroll;
    scroll.start();
    view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum());
    view.viewport()->repaint();
    const double scrollMs = msSince(scroll);

    std::printf("receipts:                        %7d\n", viewer.model()->totalReceipts());
    std::printf("open to first painted table:     %7.1f ms\n", paintedMs);
    std::printf("open to all receipts painted:    %7.1f ms\n", fullMs);
    std::printf("key filter keystroke (med, max): %7.2f ms, %.2f ms over %zu\n", median(keyStrokes),
                *std::max_element(keyStrokes.begin(), keyStrokes.end()), keyStrokes.size());
    std::printf("id search keystroke (med, max):  %7.2f ms, %.2f ms over %zu\n", median(searchStrokes),
                *std::max_element(searchStrokes.begin(), searchStrokes.end()), searchStrokes.size());
    std::printf("select a receipt (med, max):     %7.1f ms, %.1f ms over %zu\n", median(selections),
                *std::max_element(selections.begin(), selections.end()), selections.size());
    std::printf("scroll to end + repaint:         %7.1f ms\n", scrollMs);
    std::printf("summary records:                 %7.1f MiB\n",
                double(viewer.model()->summaries().bytesHeld()) / 1048576.0);
    std::printf("peak RSS:                        %7.1f MiB\n", peakRssMiB());
    return 0;
}
