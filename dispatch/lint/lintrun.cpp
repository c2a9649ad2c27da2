#include "dispatch/lint/lintrun.h"

#include "dispatch/core/poolrelease.h"
#include "dispatch/lint/linter.h"

#include <QPromise>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <deque>
#include <optional>
#include <utility>

namespace {

// Rows per batch: large enough that scheduling costs nothing next to linting them, small
// enough that cancel() answers within a few milliseconds and both cores stay busy.
constexpr int BatchRows = 1000;
// Batches linted while the run's thread reads on: enough to keep the pool busy, few
// enough that the rows held at once stay a few thousand, whatever the directory's size.
constexpr size_t BatchesInFlight = 2;

// The run's own pool thread only waits while the pool lints (blockingMap does not work on
// the calling thread); it gives its place up meanwhile, else one core would sit idle.
class PoolWait final
{
public:
    PoolWait() { QThreadPool::globalInstance()->releaseThread(); }
    ~PoolWait() { QThreadPool::globalInstance()->reserveThread(); }
    Q_DISABLE_COPY_MOVE(PoolWait)
};

// What the row-local rules found in a row where they found something: a finding or an
// edge. Most rows have neither, so a directory of 100,000 rows keeps a few tens of
// thousands of these rather than a RowLint and a key for every row.
struct LintedRow
{
    QString key;
    RowLint lint;
};

} // namespace

// Moved by memcpy, so the list of them grows in place (realloc) rather than by copying.
Q_DECLARE_TYPEINFO(LintedRow, Q_RELOCATABLE_TYPE);

struct LintRun::Outcome
{
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
    const int count = int(rows.size());
    start(
        [rows = std::move(rows)](const Batch &batch) {
            for (qsizetype begin = 0; begin < rows.size(); begin += BatchRows) {
                if (!batch(rows.mid(begin, BatchRows)))
                    break;
            }
            return StoreError::none();
        },
        count);
}

void LintRun::start(Reader read, int expectedRows)
{
    cancel();
    releaseOnPool(std::exchange(m_outcome, nullptr));
    m_running = std::make_shared<Outcome>();
    m_watcher.setFuture(QtConcurrent::run(&LintRun::runAll, m_running, std::move(read),
                                          std::max(0, expectedRows), m_localEngine));
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
        const QString message = *outcome->readError;
        releaseOnPool(std::move(outcome));
        emit readFailed(message);
        return;
    }
    m_outcome = std::move(outcome);
    emit finished(m_outcome->findings);
    // Receivers keep what they need of it; they share the lists, not the table.
    releaseOnPool(std::exchange(m_outcome->findings, {}));
}

void LintRun::runAll(QPromise<void> &promise, const std::shared_ptr<Outcome> &outcome, const Reader &read,
                     int expectedRows, bool localEngine)
{
    promise.setProgressRange(0, expectedRows);
    // The row-local rules run while the reader fills the index, so they get an index of
    // their own that nothing changes: a rule that came to read it would find it empty
    // rather than race with the reader.
    static const DirectoryIndex noIndex;
    const Linter rowRules(noIndex, localEngine);
    DirectoryIndex &index = outcome->index;
    // The first pass keeps of a row only what the row-local rules found in it (findings
    // and edges), if anything; the rows themselves go with their batch.
    QList<LintedRow> kept;
    std::deque<QFuture<QList<LintedRow>>> linting;
    std::atomic<int> done = 0;
    const auto collectOldest = [&] {
        const PoolWait wait;
        kept.append(linting.front().takeResult());
        linting.pop_front();
    };
    const StoreError readError = read([&](QList<Row> &&batch) {
        if (promise.isCanceled())
            return false;
        index.addKeys(batch);
        linting.push_back(QtConcurrent::run([&rowRules, &promise, &done, batch = std::move(batch)] {
            QList<LintedRow> part;
            for (const Row &row : batch) {
                if (promise.isCanceled())
                    break;
                RowLint lint = rowRules.lintOwn(row);
                if (!lint.findings.isEmpty() || !lint.flowKeys.isEmpty() || !lint.includes.isEmpty())
                    part.append({row.key, std::move(lint)});
            }
            promise.setProgressValue(done += int(batch.size()));
            return part;
        }));
        while (linting.size() > BatchesInFlight)
            collectOldest();
        return true;
    });
    while (!linting.empty())
        collectOldest();
    if (readError.isError()) {
        outcome->readError = readError.message;
        outcome->complete = true;
        return;
    }
    if (promise.isCanceled())
        return;

    const Linter linter(index, localEngine);
    QList<qsizetype> linked;
    for (qsizetype i = 0; i < kept.size(); ++i) {
        const LintedRow &row = kept.at(i);
        if (!row.lint.flowKeys.isEmpty() || !row.lint.includes.isEmpty()) {
            index.update(row.key, row.lint.flowKeys, row.lint.includes);
            linked.append(i);
        }
    }
    // Only rows with edges can have link findings; the others' findings are final.
    LintedRow *keptData = kept.data();
    {
        const PoolWait wait;
        QtConcurrent::blockingMap(linked, [&](qsizetype i) {
            if (!promise.isCanceled())
                keptData[i].lint.findings = linter.linked(keptData[i].key, std::move(keptData[i].lint));
        });
    }
    if (promise.isCanceled())
        return;

    for (LintedRow &row : kept) {
        if (!row.lint.findings.isEmpty())
            outcome->findings.emplace(row.key, std::move(row.lint.findings));
    }
    outcome->complete = true;
}
