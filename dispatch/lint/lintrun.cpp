#include "dispatch/lint/lintrun.h"

#include "dispatch/core/poolrelease.h"
#include "dispatch/lint/linter.h"

#include <QPromise>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <optional>
#include <utility>

namespace {

// Rows per task: large enough that scheduling costs nothing next to linting them, small
// enough that cancel() answers within a few milliseconds and both cores stay busy.
constexpr qsizetype ChunkRows = 1000;

struct Chunk
{
    qsizetype begin = 0;
    qsizetype end = 0;
};

QList<Chunk> chunksOf(qsizetype rows)
{
    QList<Chunk> chunks;
    for (qsizetype begin = 0; begin < rows; begin += ChunkRows)
        chunks.append({begin, std::min(rows, begin + ChunkRows)});
    return chunks;
}

// The run's own pool thread only waits while the pool lints (blockingMap does not work on
// the calling thread); it gives its place up meanwhile, else one core would sit idle.
class PoolWait final
{
public:
    PoolWait() { QThreadPool::globalInstance()->releaseThread(); }
    ~PoolWait() { QThreadPool::globalInstance()->reserveThread(); }
    Q_DISABLE_COPY_MOVE(PoolWait)
};

} // namespace

struct LintRun::Outcome
{
    QList<Row> rows;
    DirectoryIndex index;
    QHash<QString, QList<LintFinding>> findings;
    std::optional<QString> readError;
    bool complete = false;
};

LintRun::LintRun(bool localEngine, QObject *parent) : QObject(parent), m_localEngine(localEngine)
{
    connect(&m_watcher, &QFutureWatcherBase::progressValueChanged, this,
            [this](int done) { emit progress(done, m_watcher.progressMaximum()); });
    connect(&m_watcher, &QFutureWatcherBase::finished, this, &LintRun::onFinished);
}

LintRun::~LintRun()
{
    m_watcher.disconnect(this);
    m_watcher.cancel();
    m_watcher.waitForFinished();
}

void LintRun::start(QList<Row> rows)
{
    start([rows = std::move(rows)]() mutable -> StoreResult<QList<Row>> { return std::exchange(rows, {}); });
}

void LintRun::start(Reader read)
{
    cancel();
    releaseOnPool(std::exchange(m_outcome, nullptr));
    m_running = std::make_shared<Outcome>();
    m_watcher.setFuture(QtConcurrent::run(&LintRun::runAll, m_running, std::move(read), m_localEngine));
}

void LintRun::cancel()
{
    if (!m_running)
        return;
    m_watcher.cancel();
    m_watcher.waitForFinished();
}

bool LintRun::isRunning() const
{
    return m_running && m_watcher.isRunning();
}

QList<Row> LintRun::takeRows()
{
    return m_outcome ? std::exchange(m_outcome->rows, {}) : QList<Row>();
}

DirectoryIndex LintRun::takeIndex()
{
    return m_outcome ? std::exchange(m_outcome->index, {}) : DirectoryIndex();
}

void LintRun::onFinished()
{
    // A finished() of a future already replaced by start() is not this run's end.
    if (!m_running || !m_watcher.isFinished())
        return;
    std::shared_ptr<Outcome> outcome = std::exchange(m_running, nullptr);
    if (m_watcher.isCanceled() || !outcome->complete) {
        releaseOnPool(std::move(outcome));
        emit cancelled();
        return;
    }
    if (outcome->readError) {
        emit readFailed(*outcome->readError);
        return;
    }
    m_outcome = std::move(outcome);
    emit finished(m_outcome->findings);
    // Receivers keep what they need of it; they share the lists, not the table.
    releaseOnPool(std::exchange(m_outcome->findings, {}));
}

void LintRun::runAll(QPromise<void> &promise, const std::shared_ptr<Outcome> &outcome, const Reader &read,
                     bool localEngine)
{
    StoreResult<QList<Row>> stored = read();
    if (!stored.ok()) {
        outcome->readError = stored.error().message;
        outcome->complete = true;
        return;
    }
    outcome->rows = std::move(stored.value());
    const QList<Row> &rows = outcome->rows;
    promise.setProgressRange(0, int(rows.size()));
    if (promise.isCanceled())
        return;

    const QList<Chunk> chunks = chunksOf(rows.size());
    const Linter linter(outcome->index, localEngine);
    // Hashing 100,000 keys takes a while; it runs beside the first pass, which does not
    // read the index, instead of after it.
    DirectoryIndex &index = outcome->index;
    QFuture<void> keys = QtConcurrent::run([&index, &rows] { index.addKeys(rows); });
    QList<RowLint> own(rows.size());
    RowLint *ownData = own.data();
    std::atomic<int> done = 0;
    {
        const PoolWait wait;
        QtConcurrent::blockingMap(chunks, [&](const Chunk &chunk) {
            if (promise.isCanceled())
                return;
            for (qsizetype i = chunk.begin; i < chunk.end; ++i)
                ownData[i] = linter.lintOwn(rows.at(i));
            promise.setProgressValue(done += int(chunk.end - chunk.begin));
        });
        keys.waitForFinished();
    }
    if (promise.isCanceled())
        return;

    QList<qsizetype> linked;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        if (!own.at(i).flowKeys.isEmpty() || !own.at(i).includes.isEmpty()) {
            index.update(rows.at(i).key, own.at(i).flowKeys, own.at(i).includes);
            linked.append(i);
        }
    }
    // Only rows with edges can have link findings; the others' findings are final.
    {
        const PoolWait wait;
        QtConcurrent::blockingMap(linked, [&](qsizetype i) {
            if (!promise.isCanceled())
                ownData[i].findings = linter.linked(rows.at(i).key, std::move(ownData[i]));
        });
    }
    if (promise.isCanceled())
        return;

    for (qsizetype i = 0; i < rows.size(); ++i) {
        if (!own.at(i).findings.isEmpty())
            outcome->findings.emplace(rows.at(i).key, std::move(ownData[i].findings));
    }
    outcome->complete = true;
}
