// A local fn invocation end to end, as capdeskctl and the GUI run it: dispatcher → store
// lookup → FnRunner (worker thread) → outcome back on the calling thread. Prints p50/p95
// over 5,000 calls. No receipts exist yet, so this is the floor receipts will add to.
#include "invocationhandle.h"
#include "sampledirectory.h"
#include "sqlitedirectorystore.h"
#include "standarddispatcher.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    auto opened = SqliteDirectoryStore::open(dir.filePath(QStringLiteral("bench.db")));
    if (!opened.ok() || opened.value()->importRows(SampleDirectory::rows().value()).isError())
        return 1;
    StandardDispatcher dispatcher(opened.value());

    std::vector<double> micros;
    constexpr int calls = 5000;
    micros.reserve(calls);
    for (int i = 0; i < calls + 200; ++i) {
        QElapsedTimer timer;
        timer.start();
        InvocationHandle *handle = dispatcher.invoke({QStringLiteral("UPPERCASE"), QStringLiteral("hello|world"), false, std::nullopt});
        QEventLoop loop;
        QObject::connect(handle, &InvocationHandle::finished, &loop, &QEventLoop::quit);
        if (!handle->isFinished())
            loop.exec();
        const double elapsed = double(timer.nsecsElapsed()) / 1000.0;
        if (handle->outcome().result.isFailure()) {
            std::fprintf(stderr, "%s\n", qPrintable(handle->outcome().result.output));
            return 1;
        }
        delete handle;
        if (i >= 200) // the first calls warm the pool and the statement cache
            micros.push_back(elapsed);
    }
    std::sort(micros.begin(), micros.end());
    std::printf("local fn invoke (UPPERCASE): p50 %.1f us, p95 %.1f us, over %d calls\n", micros[micros.size() / 2],
                micros[micros.size() * 95 / 100], calls);
    return 0;
}
