// A local fn invocation end to end, as capdeskctl and the GUI run it: dispatcher → store
// lookup → FnRunner (worker thread) → signed receipt committed → outcome back on the
// calling thread. Prints p50/p99 over 2,000 calls, once with the directory on the disk
// the folder given (default: the current one) lives on and once on /dev/shm, then what
// one receipt costs by part, so the durable commit's share is visible.
#include "dispatch/call/invocationhandle.h"
#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "dispatch/receipts/receiptlog.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/store/sampledirectory.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

struct Percentiles
{
    double p50 = 0;
    double p99 = 0;
};

Percentiles measure(int calls, const std::function<bool()> &call)
{
    std::vector<double> micros;
    micros.reserve(calls);
    for (int i = 0; i < calls + 50; ++i) {
        QElapsedTimer timer;
        timer.start();
        if (!call())
            return {-1, -1};
        if (i >= 50) // the first calls warm the pool, the key and the statement cache
            micros.push_back(double(timer.nsecsElapsed()) / 1000.0);
    }
    std::sort(micros.begin(), micros.end());
    return {micros[micros.size() / 2], micros[micros.size() * 99 / 100]};
}

bool invokeOnce(StandardDispatcher &dispatcher)
{
    InvocationHandle *handle =
        dispatcher.invoke({QStringLiteral("UPPERCASE"), QStringLiteral("hello|world"), false, std::nullopt});
    QEventLoop loop;
    QObject::connect(handle, &InvocationHandle::finished, &loop, &QEventLoop::quit);
    if (!handle->isFinished())
        loop.exec();
    const bool ok = !handle->outcome().result.isFailure() && handle->outcome().receipt.has_value();
    if (!ok)
        std::fprintf(stderr, "%s %s\n", qPrintable(handle->outcome().result.output),
                     qPrintable(handle->outcome().receiptError));
    delete handle;
    return ok;
}

// `where` names the figures: disk or ram.
bool benchIn(const QString &folder, const char *label, const QByteArray &where)
{
    QTemporaryDir dir(folder + QStringLiteral("/capdesk-bench-XXXXXX"));
    auto opened = SqlDirectoryStore::open(dir.filePath(QStringLiteral("bench.db")));
    if (!opened.ok() || opened.value()->importRows(SampleDirectory::rows().value()).isError())
        return false;
    auto ledger = std::make_shared<DirectoryLedger>(opened.value(), DirectoryLedger::KeyPlacement::FileOnly);
    StandardDispatcher dispatcher(opened.value(), ledger);
    const Percentiles invoke = measure(2000, [&] { return invokeOnce(dispatcher); });
    std::printf(
        "local fn invoke with its durable signed receipt, %s: p50 %.1f us, p99 %.1f us (2,000 calls)\n",
        label, invoke.p50, invoke.p99);

    const Row row = opened.value()->row(QStringLiteral("UPPERCASE")).value();
    const Percentiles fingerprint = measure(2000, [&] { return !ContractFingerprint::of(row).isEmpty(); });
    const SigningKey key = SigningKey::generate();
    Receipt receipt;
    receipt.invocationId = QStringLiteral("inv_0000000000");
    receipt.trace = QStringLiteral("t_00000000");
    receipt.key = row.key;
    receipt.actor = QStringLiteral("owner:local");
    receipt.runner = row.type;
    receipt.startedAt = QStringLiteral("2026-11-30T00:00:00.000Z");
    receipt.status = Receipt::statusFor(true);
    receipt.contractFingerprint = ContractFingerprint::of(row);
    const Percentiles sign = measure(2000, [&] { return key.sign(receipt.signedBytes()).size() == 64; });
    ReceiptLog log(opened.value()->database());
    int n = 0;
    const Percentiles append = measure(500, [&] {
        receipt.invocationId = QStringLiteral("inv_b%1").arg(++n, 9, 10, QLatin1Char('0'));
        return !log.append(receipt, key).isError();
    });
    std::printf("  parts, %s: contract fingerprint p50 %.1f us; canonical JSON + Ed25519 sign p50 %.1f us; "
                "receipt INSERT, chain link, signed head + durable commit p50 %.1f us, p99 %.1f us\n",
                label, fingerprint.p50, sign.p50, append.p50, append.p99);
    printFigure(where + ".invoke_p50_us", invoke.p50);
    printFigure(where + ".invoke_p99_us", invoke.p99);
    printFigure(where + ".durable_commit_p50_us", append.p50);
    return invoke.p50 >= 0 && append.p50 >= 0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (const auto exit = BenchCommandLine::check(app.arguments(), "bench_invoke [FOLDER]", 1))
        return *exit;
    const QString disk = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QDir::currentPath();
    if (!benchIn(disk, "on disk", "disk"))
        return 1;
    if (QDir(QStringLiteral("/dev/shm")).exists()
        && !benchIn(QStringLiteral("/dev/shm"), "on /dev/shm (RAM)", "ram"))
        return 1;
    return 0;
}
