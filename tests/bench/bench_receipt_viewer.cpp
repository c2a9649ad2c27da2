// Opens the receipt viewer on a directory of N receipts (100,000 by default, built in a
// temporary folder; with --cache DIR, built once into DIR/receipts-N.db and reused; given
// a postgresql:// URL, the database is filled up to N with COPY, once, and reused) and
// prints: open to the first painted page, the total counted, a filter keystroke to its
// first page painted (median, max), a status filter, an id search for one receipt,
// selecting a receipt (details, signature check, trace, bucketed plot), paging on by
// scrolling to the end, and peak RSS.
// Usage: bench_receipt_viewer [--receipts N] [--cache DIR] [FILE.db | postgresql://…]
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/postgreslocation.h"
#include "dispatch/store/sqldirectorystore.h"
#include "models/receipttablemodel.h"
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"
#include "tests/bench/paintprobe.h"
#include "tests/support/receiptfixture.h"
#include "views/common/messageboxprompter.h"
#include "views/receipts/receiptfilterbar.h"
#include "views/receipts/receiptviewer.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QLineEdit>
#include <QProcess>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>
#include <QTemporaryDir>

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <functional>
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

// Batched: one transaction per 200,000 receipts. Signing is for the default size only: a
// cached fixture of millions is for listing and filtering, where no signature is checked.
QString generate(const QString &path, int receipts)
{
    const QString partial = path + QStringLiteral(".partial");
    QFile::remove(partial);
    {
        auto store = SqlDirectoryStore::open(partial);
        if (!store.ok())
            return store.error().message;
        const SigningKey key = receipts <= 100000 ? SigningKey::generate() : SigningKey();
        QElapsedTimer timer;
        timer.start();
        constexpr int kBatch = 200000;
        for (int first = 0; first < receipts; first += kBatch) {
            const QString error = ReceiptFixture::insert(store.value()->database(), first,
                                                         std::min(kBatch, receipts - first), 500, key);
            if (!error.isEmpty())
                return error;
            if (receipts > kBatch)
                std::fprintf(stderr, "\r%d of %d receipts written", std::min(first + kBatch, receipts),
                             receipts);
        }
        std::printf("%sgenerate %d receipts:            %7.0f ms\n", receipts > kBatch ? "\n" : "", receipts,
                    msSince(timer));
    }
    return QFile::rename(partial, path) ? QString() : QStringLiteral("cannot rename %1").arg(partial);
}

// One CSV field: quoted, its quotes doubled; an empty `nullable` one unquoted, which COPY reads as NULL.
void appendField(QByteArray &csv, const QString &value, bool nullable = false)
{
    if (nullable && value.isEmpty())
        return;
    csv += '"' + value.toUtf8().replace('"', "\"\"") + '"';
}

// PostgreSQL's bulk load for the same fixture a file gets: receipts [first, receipts)
// streamed as CSV into `COPY … FROM STDIN` through psql, unsigned, then ANALYZE.
QString copyIntoPostgres(const QString &url, int first, int receipts)
{
    QProcess psql;
    psql.setProcessChannelMode(QProcess::ForwardedOutputChannel);
    psql.start(QStringLiteral("psql"),
               {QStringLiteral("--no-psqlrc"), QStringLiteral("--quiet"), QStringLiteral("-v"),
                QStringLiteral("ON_ERROR_STOP=1"), QStringLiteral("-d"), url, QStringLiteral("-c"),
                QStringLiteral("COPY receipts (invocation_id, trace, key, parent, actor, runner, started_at, "
                               "duration_ms, material, status, contract_fingerprint, receipt_json) "
                               "FROM STDIN WITH (FORMAT csv)"),
                QStringLiteral("-c"), QStringLiteral("ANALYZE receipts")});
    if (!psql.waitForStarted())
        return QStringLiteral("cannot start psql: %1").arg(psql.errorString());
    QElapsedTimer timer;
    timer.start();
    QByteArray csv;
    for (int n = first; n < receipts; ++n) {
        const Receipt r = ReceiptFixture::receipt(n, 500);
        appendField(csv, r.invocationId);
        csv += ',';
        appendField(csv, r.trace);
        csv += ',';
        appendField(csv, r.key);
        csv += ',';
        appendField(csv, r.parent, true);
        csv += ',';
        appendField(csv, r.actor);
        csv += ',';
        appendField(csv, r.runner);
        csv += ',';
        appendField(csv, r.startedAt);
        csv += ',' + QByteArray::number(r.durationMs) + ',' + (r.material ? "1" : "0") + ',';
        appendField(csv, r.status);
        csv += ',';
        appendField(csv, r.contractFingerprint);
        csv += ',';
        appendField(csv, QString::fromUtf8(QJsonDocument(r.toJson()).toJson(QJsonDocument::Compact)));
        csv += '\n';
        if (csv.size() >= (4 << 20) || n + 1 == receipts) {
            psql.write(csv);
            csv.clear();
            while (psql.bytesToWrite() > 0 && psql.state() == QProcess::Running)
                psql.waitForBytesWritten(-1);
            std::fprintf(stderr, "\r%d of %d receipts copied", n + 1, receipts);
        }
    }
    psql.closeWriteChannel();
    psql.waitForFinished(-1);
    std::printf("\ncopy %d receipts into PostgreSQL: %7.0f ms\n", receipts - first, msSince(timer));
    if (psql.exitStatus() != QProcess::NormalExit || psql.exitCode() != 0)
        return QStringLiteral("psql failed: %1").arg(QString::fromLocal8Bit(psql.readAllStandardError()));
    return {};
}

// Turns the event loop, idle, until `done` holds.
void waitUntil(const std::function<bool()> &done)
{
    while (!done())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
}

// From a change of the filter to its first page painted, the reads on a worker.
double timeFilter(ReceiptViewer &viewer, QTableView &view, const std::function<void()> &change)
{
    QElapsedTimer timer;
    timer.start();
    change();
    waitUntil([&viewer] { return !viewer.model()->isLoading(); });
    view.viewport()->repaint();
    return msSince(timer);
}

void type(ReceiptViewer &viewer, QTableView &view, QLineEdit *edit, const QString &text,
          std::vector<double> *times)
{
    for (int n = 1; n <= text.size(); ++n)
        times->push_back(timeFilter(viewer, view, [edit, &text, n] { edit->setText(text.left(n)); }));
    timeFilter(viewer, view, [edit] { edit->clear(); });
}

} // namespace

int main(int argc, char *argv[])
{
    paintOffscreenWithoutDisplay();
    QApplication app(argc, argv);
    const char *usage = "bench_receipt_viewer [--receipts N] [--cache DIR] [FILE.db | postgresql://…]";
    if (const auto exit = BenchCommandLine::check(app.arguments(), usage, 1,
                                                  {QStringLiteral("--receipts"), QStringLiteral("--cache")}))
        return *exit;
    const std::optional<int> counted =
        BenchCommandLine::number(app.arguments(), QStringLiteral("--receipts"), 100000, 1, 100000000, usage);
    if (!counted)
        return 2;
    const int receipts = *counted;
    QString cache;
    QString path;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg == QLatin1String("--receipts"))
            ++i;
        else if (arg == QLatin1String("--cache"))
            cache = QString::fromLocal8Bit(argv[++i]);
        else
            path = arg;
    }
    QTemporaryDir dir;
    if (PostgresLocation::isUrl(path)) {
        auto store = SqlDirectoryStore::open(path);
        if (!store.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(store.error().message));
            return 1;
        }
        QSqlQuery count(store.value()->database());
        if (!count.exec(QStringLiteral("SELECT count(*) FROM receipts")) || !count.next()) {
            std::fprintf(stderr, "%s\n", qPrintable(count.lastError().text()));
            return 1;
        }
        // A COPY of a million at a time: the counting trigger holds each statement's rows.
        constexpr int kCopied = 1000000;
        for (int held = count.value(0).toInt(); held < receipts; held += kCopied) {
            const QString error = copyIntoPostgres(path, held, std::min(receipts, held + kCopied));
            if (!error.isEmpty()) {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                return 1;
            }
            forgetGeneration();
        }
    } else if (path.isEmpty()) {
        path = cache.isEmpty() ? dir.filePath(QStringLiteral("bench.db"))
                               : QDir(cache).filePath(QStringLiteral("receipts-%1.db").arg(receipts));
        if (!cache.isEmpty())
            QDir().mkpath(cache);
        if (!QFile::exists(path)) {
            const QString error = generate(path, receipts);
            if (!error.isEmpty()) {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                return 1;
            }
            forgetGeneration();
        }
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
    waitUntil([&viewer] { return viewer.model()->rowCount() > 0; });
    waitForPaint(view, probe);
    const double paintedMs = msSince(timer);
    waitUntil([&viewer] { return viewer.model()->totalReceipts() >= 0 && !viewer.model()->isLoading(); });
    const double countedMs = msSince(timer);

    std::vector<double> keyStrokes;
    for (int round = 0; round < 3; ++round)
        type(viewer, view, viewer.filterBar()->keyEdit(), QStringLiteral("rk_0123"), &keyStrokes);
    std::vector<double> statusFilters;
    QComboBox *status = viewer.filterBar()->statusCombo();
    for (int round = 0; round < 3; ++round) {
        for (int index = 1; index < status->count(); ++index)
            statusFilters.push_back(
                timeFilter(viewer, view, [status, index] { status->setCurrentIndex(index); }));
        timeFilter(viewer, view, [status] { status->setCurrentIndex(0); });
    }
    // One receipt in the middle of the log: the rarest match there is.
    const QString someId = ReceiptFixture::invocationId(receipts / 2);
    const double searchMs =
        timeFilter(viewer, view, [&viewer, &someId] { viewer.filterBar()->searchEdit()->setText(someId); });
    const int searchRows = viewer.model()->rowCount();
    timeFilter(viewer, view, [&viewer] { viewer.filterBar()->searchEdit()->clear(); });

    std::vector<double> selections;
    for (int row = 10; row < viewer.model()->rowCount(); row += 45) {
        QSignalSpy plotted(&viewer, &ReceiptViewer::plotted);
        QElapsedTimer select;
        select.start();
        viewer.showInvocation(viewer.model()->invocationIdAt(row));
        waitUntil([&plotted] { return !plotted.isEmpty(); });
        viewer.repaint(); // every pane changes: details, tree, plot and the table's selection
        selections.push_back(msSince(select));
    }

    std::vector<double> pages;
    for (int page = 0; page < 20 && viewer.model()->canFetchMore({}); ++page) {
        QElapsedTimer scroll;
        scroll.start();
        view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum());
        waitUntil([&viewer] { return !viewer.model()->isLoading(); });
        view.viewport()->repaint();
        pages.push_back(msSince(scroll));
    }

    std::printf("receipts:                        %7lld\n", viewer.model()->totalReceipts());
    std::printf("open to first painted page:      %7.1f ms\n", paintedMs);
    std::printf("open to the total counted:       %7.1f ms\n", countedMs);
    std::printf("key filter keystroke (med, max): %7.1f ms, %.1f ms over %zu\n", median(keyStrokes),
                *std::max_element(keyStrokes.begin(), keyStrokes.end()), keyStrokes.size());
    std::printf("status filter (med, max):        %7.1f ms, %.1f ms over %zu\n", median(statusFilters),
                *std::max_element(statusFilters.begin(), statusFilters.end()), statusFilters.size());
    std::printf("id search, 1 receipt of all:     %7.1f ms (%d found)\n", searchMs, searchRows);
    std::printf("select a receipt (med, max):     %7.1f ms, %.1f ms over %zu\n", median(selections),
                *std::max_element(selections.begin(), selections.end()), selections.size());
    std::printf("scroll to end, next page (med):  %7.1f ms over %zu pages\n", median(pages), pages.size());
    std::printf("listed receipts held:            %7d, %.1f MiB\n", viewer.model()->rowCount(),
                double(viewer.model()->summaries().bytesHeld()) / 1048576.0);
    std::printf("peak RSS:                        %7.1f MiB\n", peakRssMiB());
    printFigure("open_ms", paintedMs);
    printFigure("counted_ms", countedMs);
    printFigure("key_filter_median_ms", median(keyStrokes));
    printFigure("status_filter_median_ms", median(statusFilters));
    printFigure("peak_rss_mib", peakRssMiB());
    return 0;
}
