#include "lintrun.h"

#include "linter.h"

#include <QtConcurrent/QtConcurrentMap>

#include <utility>

// The rows and their index live as long as the mapped future reads them, even when the
// run is restarted or the LintRun is destroyed first.
struct LintRun::Snapshot
{
    QList<Row> rows;
    DirectoryIndex index;
    bool localEngine = true;
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
    cancel();
    auto snapshot = std::make_shared<Snapshot>();
    snapshot->index = DirectoryIndex::build(rows);
    snapshot->rows = std::move(rows);
    snapshot->localEngine = m_localEngine;
    m_snapshot = snapshot;
    m_watcher.setFuture(QtConcurrent::mapped(snapshot->rows, [snapshot](const Row &row) {
        return Linter(snapshot->index, snapshot->localEngine).lint(row);
    }));
}

void LintRun::cancel()
{
    if (!m_snapshot)
        return;
    m_watcher.cancel();
    m_watcher.waitForFinished();
}

bool LintRun::isRunning() const
{
    return m_snapshot && m_watcher.isRunning();
}

void LintRun::onFinished()
{
    const std::shared_ptr<Snapshot> snapshot = std::exchange(m_snapshot, nullptr);
    if (!snapshot || m_watcher.isCanceled()) {
        emit cancelled();
        return;
    }
    QHash<QString, QList<LintFinding>> byKey;
    byKey.reserve(snapshot->rows.size());
    const QList<QList<LintFinding>> results = m_watcher.future().results();
    for (qsizetype i = 0; i < snapshot->rows.size() && i < results.size(); ++i)
        byKey.insert(snapshot->rows.at(i).key, results.at(i));
    emit finished(byKey);
}
