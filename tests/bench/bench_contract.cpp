#include "dispatch/contract/contractdocument.h"
#include "dispatch/contract/mcpprojection.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <vector>

// What the contract documents of SPEC §9 cost a model's context, per directory file given:
// bytes and estimated tokens of one row's document (median, p90, max, and which row is the
// typical one), the registry total, the MCP tools/list projection, and the render time.
//   bench_contract FILE.db [FILE.db…]

namespace {

struct Sized
{
    qsizetype bytes;
    QString key;
};

const Sized &at(const std::vector<Sized> &sorted, double quantile)
{
    return sorted[std::min(sorted.size() - 1, std::size_t(quantile * double(sorted.size())))];
}

int measure(const QString &path)
{
    StoreResult<std::shared_ptr<SqlDirectoryStore>> store = SqlDirectoryStore::open(path);
    if (!store.ok()) {
        std::fprintf(stderr, "%s: %s\n", qPrintable(path), qPrintable(store.error().message));
        return 1;
    }
    const StoreResult<QList<Row>> rows = store.value()->allRows();
    if (!rows.ok() || rows.value().isEmpty()) {
        std::fprintf(stderr, "%s: no rows\n", qPrintable(path));
        return 1;
    }
    std::vector<Sized> sizes;
    qint64 total = 0;
    QElapsedTimer timer;
    timer.start();
    for (const Row &row : rows.value()) {
        const qsizetype bytes = ContractDocument::render(row).toUtf8().size();
        sizes.push_back({bytes, row.key});
        total += bytes;
    }
    const double perRowUs = double(timer.nsecsElapsed()) / 1e3 / double(sizes.size());
    std::sort(sizes.begin(), sizes.end(), [](const Sized &a, const Sized &b) { return a.bytes < b.bytes; });
    const Sized &median = at(sizes, 0.5);
    const Sized &p90 = at(sizes, 0.9);
    const Sized &max = sizes.back();
    const QByteArray tools =
        QJsonDocument(McpProjection::toolsList(rows.value())).toJson(QJsonDocument::Compact);
    auto tokens = [](qint64 bytes) { return (bytes + 3) / 4; };

    std::printf("%s: %lld rows\n", qPrintable(path), qlonglong(sizes.size()));
    std::printf("  contract bytes: min %lld, median %lld (%s, ~%lld tokens), p90 %lld (%s), max %lld (%s)\n",
                qlonglong(sizes.front().bytes), qlonglong(median.bytes), qPrintable(median.key),
                qlonglong(tokens(median.bytes)), qlonglong(p90.bytes), qPrintable(p90.key),
                qlonglong(max.bytes), qPrintable(max.key));
    std::printf("  registry: %lld bytes, ~%lld tokens (%.0f bytes a row)\n", qlonglong(total),
                qlonglong(tokens(total)), double(total) / double(sizes.size()));
    std::printf("  mcp tools/list: %lld bytes, ~%lld tokens\n", qlonglong(tools.size()),
                qlonglong(tokens(tools.size())));
    std::printf("  render: %.1f us a row\n", perRowUs);
    printFigure("median_bytes", double(median.bytes));
    printFigure("p90_bytes", double(p90.bytes));
    printFigure("max_bytes", double(max.bytes));
    printFigure("median_tokens", double(tokens(median.bytes)));
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const char *usage = "bench_contract FILE.db [FILE.db…]";
    if (const auto exit = BenchCommandLine::check(app.arguments(), usage, std::numeric_limits<int>::max()))
        return *exit;
    const QStringList paths = app.arguments().mid(1);
    if (paths.isEmpty()) {
        std::fprintf(stderr, "bench_contract needs FILE.db\nusage: %s\n", usage);
        return 2;
    }
    int status = 0;
    if (!std::all_of(paths.cbegin(), paths.cend(), &BenchCommandLine::directoryExists))
        return 2;
    for (const QString &path : paths)
        status |= measure(path);
    return status;
}
