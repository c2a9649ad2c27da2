// The desktop window against a real `capdeskctl serve` a round trip away (issue 12): a
// LatencyProxy delays every request and answer by 0, 300 or 2,000 ms. For each, it prints
// the time from show() to the window's first paint, from connecting to the first painted
// rows, the GUI thread's largest stall from the first frame on (connect, ten selections of
// rows not read yet and back, an edit and its save), and what a selection costs the
// server: row reads for a row not read yet, and for one read before. Beside the stall, the
// GUI thread's CPU time on its costliest event, named: unlike the stall, it does not grow
// with the machine's load.
// Usage: bench_remote_latency [ROWS] (default 891, the size of the tryout).
#include "dispatch/directory/localdirectory.h"
#include "dispatch/store/sqldirectorystore.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"
#include "tests/bench/eventcostapplication.h"
#include "tests/bench/paintprobe.h"
#include "tests/support/fixturegenerator.h"
#include "tests/support/guistallprobe.h"
#include "tests/support/latencyproxy.h"
#include "tests/support/serveprocess.h"
#include "views/common/directorysession.h"
#include "views/shell/connectactions.h"
#include "views/shell/editactions.h"
#include "views/shell/mainwindow.h"
#include "views/table/directorytableview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("bench-remote-latency-owner-key-5e1");

// Access-log lines since the last call that start with `prefix`.
class AccessLogCounter
{
public:
    explicit AccessLogCounter(ServeProcess &server) : m_server(server) {}
    int since(const QByteArray &prefix)
    {
        const QByteArray all = m_server.standardError();
        const QByteArray fresh = all.mid(m_seen);
        m_seen = all.size();
        int count = 0;
        for (const QByteArray &line : fresh.split('\n'))
            count += line.startsWith(prefix) ? 1 : 0;
        return count;
    }

private:
    ServeProcess &m_server;
    qsizetype m_seen = 0;
};

bool waitUntil(const std::function<bool()> &done, int timeoutMs = 60000)
{
    QElapsedTimer timer;
    timer.start();
    // Sleeps until the next event rather than spinning: a busy loop here would take a core
    // from the proxy, the server and the app's own workers, and its calls of done() would
    // count as the app's time.
    QTimer wake;
    wake.start(5);
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

struct Numbers
{
    double windowPaintedMs = 0;
    double firstRowsMs = 0;
    qint64 largestStallMs = 0;
    double largestBusyMs = 0;
    qint64 worstKeyDelayMs = 0;
    double readsPerNewSelection = 0;
    double readsPerReselection = 0;
    double selectionShownMs = 0; // the summary or the row on screen after a click
    EventCostApplication::Cost costliestEvent;
};

bool measure(EventCostApplication &app, int roundTripMs, const QString &localPath, ServeProcess &server,
             Numbers *numbers)
{
    LatencyProxy proxy(QStringLiteral("127.0.0.1"), server.port(), roundTripMs);
    QString error;
    if (!proxy.listen(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return false;
    }
    AccessLogCounter log(server);
    log.since({});
    DirectorySession session;
    auto store = SqlDirectoryStore::open(localPath);
    if (!store.ok() || session.open(LocalDirectory::over(store.value())).isError())
        return false;
    MainWindow window(session);
    window.resize(1440, 900);
    GuiStallProbe probe;

    QElapsedTimer clock;
    clock.start();
    PaintProbe windowPaint;
    window.installEventFilter(&windowPaint);
    window.show();
    // As `capdesk --server URL` does: connecting starts as the window appears.
    QElapsedTimer connecting;
    connecting.start();
    window.connectActions()->connectTo({QStringLiteral("bench"), proxy.url()},
                                       QString::fromLatin1(kOwnerKey));
    if (!waitUntil([&] { return windowPaint.painted; }))
        return false;
    numbers->windowPaintedMs = msSince(clock);
    // From the first frame on: building the window is start-up, not waiting on the network.
    probe.start();
    app.startCounting();

    PaintProbe rowsPaint;
    window.tableView()->viewport()->installEventFilter(&rowsPaint);
    if (!waitUntil([&] {
            DirectoryDocument *document = session.document();
            return session.connection() && document && document->tableModel()->rowCount() > 0;
        }))
        return false;
    rowsPaint.painted = false;
    if (!waitUntil([&] { return rowsPaint.painted; }))
        return false;
    numbers->firstRowsMs = msSince(connecting);
    DirectoryDocument *document = session.document();
    waitUntil([&] { return !document->tableModel()->isLoading(); });

    // Ten rows not read yet, each waited for, then back over them.
    QStringList keys;
    for (int row = 0; row < 10 && row < document->tableModel()->rowCount(); ++row)
        keys.append(document->tableModel()->keyAt(row * 7 % document->tableModel()->rowCount()));
    keys.removeDuplicates();
    log.since({});
    double shownMs = 0;
    for (const QString &key : keys) {
        QElapsedTimer shown;
        shown.start();
        window.tableView()->selectKey(key);
        shownMs = std::max(shownMs, msSince(shown));
        if (!waitUntil([&] { return document->row(key).has_value(); }))
            return false;
    }
    numbers->selectionShownMs = shownMs;
    numbers->readsPerNewSelection = double(log.since("GET /api/directory/")) / double(keys.size());
    for (const QString &key : keys)
        window.tableView()->selectKey(key);
    numbers->readsPerReselection = double(log.since("GET /api/directory/")) / double(keys.size());

    document->setField(keys.first(), QStringLiteral("category"), QStringLiteral("bench-%1").arg(roundTripMs));
    bool saved = false;
    QObject::connect(document, &DirectoryDocument::saved, [&saved] { saved = true; });
    window.editActions()->save();
    if (!waitUntil([&] { return saved; }))
        return false;
    probe.stop();
    app.stopCounting();
    numbers->costliestEvent = app.costliest();
    numbers->largestStallMs = probe.largestGapMs();
    numbers->largestBusyMs = probe.largestBusyMs();
    numbers->worstKeyDelayMs = probe.worstKeyDelayMs();
    return true;
}

} // namespace

constexpr const char *kUsage = "bench_remote_latency [ROWS]";

int main(int argc, char *argv[])
{
    paintOffscreenWithoutDisplay();
    EventCostApplication app(argc, argv);
    int exitCode = 0;
    const std::optional<int> counted = BenchCommandLine::rowsOnly(app.arguments(), 891, kUsage, exitCode);
    if (!counted)
        return exitCode;
    const int rows = *counted;
    QTemporaryDir dir;
    const QString served = dir.filePath(QStringLiteral("served.db"));
    const QString local = dir.filePath(QStringLiteral("local.db"));
    for (const QString &path : {served, local}) {
        if (const QString error = FixtureGenerator::makeDatabase(path, rows); !error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
    }
    ServeProcess server;
    QString error;
    if (!server.start(served, kOwnerKey, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("%d rows; per round trip: window painted after show / first rows painted after connect / "
                "largest GUI stall (most GUI-thread CPU between two beats; worst key delay) / selection on "
                "screen / row reads "
                "per new and per "
                "repeated selection / the GUI thread's costliest event (its CPU time)\n",
                rows);
    for (const int roundTripMs : {0, 300, 2000}) {
        Numbers numbers;
        if (!measure(app, roundTripMs, local, server, &numbers)) {
            std::fprintf(stderr, "the run at %d ms did not finish\n", roundTripMs);
            return 1;
        }
        std::printf("%5d ms: %6.1f ms / %7.1f ms / %3lld ms (%.1f ms; %lld ms) / %5.1f ms / %.2f and %.2f / "
                    "%.1f ms: %s\n",
                    roundTripMs, numbers.windowPaintedMs, numbers.firstRowsMs,
                    static_cast<long long>(numbers.largestStallMs), numbers.largestBusyMs,
                    static_cast<long long>(numbers.worstKeyDelayMs), numbers.selectionShownMs,
                    numbers.readsPerNewSelection, numbers.readsPerReselection, numbers.costliestEvent.cpuMs,
                    qPrintable(numbers.costliestEvent.what));
        const QByteArray name = "rtt" + QByteArray::number(roundTripMs);
        printFigure(name + ".window_painted_ms", numbers.windowPaintedMs);
        printFigure(name + ".first_rows_ms", numbers.firstRowsMs);
        printFigure(name + ".largest_stall_ms", double(numbers.largestStallMs));
        printFigure(name + ".selection_shown_ms", numbers.selectionShownMs);
    }
    return 0;
}
