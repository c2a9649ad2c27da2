#include "models/contentsearch.h"

#include "dispatch/store/directorystore.h"

#include <QtConcurrent/QtConcurrentRun>

ContentSearch::ContentSearch(std::shared_ptr<DirectoryStore> store, QObject *parent)
    : QObject(parent), m_store(std::move(store))
{
    m_debounce.setSingleShot(true);
    connect(&m_debounce, &QTimer::timeout, this, &ContentSearch::start);
}

ContentSearch::~ContentSearch()
{
    // Searches use the store without owning it, so the store (and its QtSql connection)
    // is released here on its own thread, never by a worker.
    for (QFutureWatcher<StoreResult<QStringList>> *watcher :
         findChildren<QFutureWatcher<StoreResult<QStringList>> *>())
        watcher->waitForFinished();
}

void ContentSearch::request(const QString &text, int delayMs)
{
    m_pending = text;
    ++m_generation;
    if (text.isEmpty()) {
        m_debounce.stop();
        emit finished(text, {});
        updateBusy();
        return;
    }
    m_debounce.start(delayMs);
    updateBusy();
}

// Busy spans the debounce wait and every running search; the signal fires only on change.
void ContentSearch::updateBusy()
{
    if (isBusy() == m_busy)
        return;
    m_busy = !m_busy;
    emit busyChanged(m_busy);
}

bool ContentSearch::isBusy() const
{
    return m_running > 0 || m_debounce.isActive();
}

void ContentSearch::start()
{
    const quint64 generation = m_generation;
    const QString text = m_pending;
    auto *watcher = new QFutureWatcher<StoreResult<QStringList>>(this);
    ++m_running;
    updateBusy();
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, text] {
        watcher->deleteLater();
        --m_running;
        updateBusy();
        const StoreResult<QStringList> result = watcher->result();
        if (generation != m_generation)
            return;
        if (result.ok())
            emit finished(text, result.value());
        else
            emit failed(result.error().message);
    });
    const DirectoryStore *store = m_store.get();
    watcher->setFuture(QtConcurrent::run([store, text] { return store->keysWithContent(text); }));
}
