#include "models/rowreader.h"

#include "models/guithreadinbox.h"

#include <QPointer>

namespace {

// Enough for every row a session looks at; past it the cache starts again (a re-read is
// one round trip, never a wrong answer).
constexpr qsizetype kRememberedRows = 4096;

} // namespace

RowReader::RowReader(std::shared_ptr<const DirectoryStore> store, QObject *parent)
    : QObject(parent), m_store(std::move(store))
{}

RowReader::~RowReader() = default;

std::optional<Row> RowReader::fresh(const QString &key, const QString &updatedAt) const
{
    const auto it = m_rows.constFind(key);
    if (it == m_rows.constEnd() || it->updatedAt != updatedAt)
        return std::nullopt;
    return *it;
}

std::optional<Row> RowReader::lastRead(const QString &key) const
{
    const auto it = m_rows.constFind(key);
    if (it == m_rows.constEnd())
        return std::nullopt;
    return *it;
}

void RowReader::remember(const Row &row)
{
    if (m_rows.size() >= kRememberedRows && !m_rows.contains(row.key))
        m_rows.clear();
    m_rows.insert(row.key, row);
}

void RowReader::forget(const QString &key)
{
    m_rows.remove(key);
}

template<typename Result>
void RowReader::run(std::function<Result(const DirectoryStore &)> work,
                    std::function<void(const Result &)> deliver)
{
    setInFlight(m_inFlight + 1);
    QPointer<RowReader> self(this);
    const quint64 generation = m_generation;
    m_queue.post(
        [self, generation, store = m_store, work = std::move(work), deliver = std::move(deliver)]() mutable {
            Result result = work(*store);
            // Whether its reader is still there is decided on the GUI thread. The store goes
            // along, so that a server connection is released there (or here, at exit).
            GuiThreadInbox::post(
                [self, generation, deliver, result = std::move(result), store = std::move(store)] {
                    if (!self)
                        return;
                    self->setInFlight(self->m_inFlight - 1);
                    if (generation == self->m_generation)
                        deliver(result);
                });
        });
}

void RowReader::fetch(const QString &key)
{
    if (m_fetching.contains(key))
        return;
    m_fetching.insert(key);
    run<StoreResult<Row>>([key](const DirectoryStore &store) { return store.row(key); },
                          [this, key](const StoreResult<Row> &result) {
                              m_fetching.remove(key);
                              if (result.ok()) {
                                  remember(result.value());
                                  emit fetched(key, result.value());
                              } else if (result.error().kind == StoreError::Kind::NotFound) {
                                  forget(key);
                                  emit fetched(key, std::nullopt);
                              } else {
                                  emit fetchFailed(key, result.error());
                              }
                          });
}

void RowReader::fetchRows(const QStringList &keys, RowsDone done)
{
    run<StoreResult<QList<Row>>>([keys](const DirectoryStore &store) { return store.rows(keys); },
                                 [this, done = std::move(done)](const StoreResult<QList<Row>> &result) {
                                     QHash<QString, Row> rows;
                                     if (result.ok()) {
                                         for (const Row &row : result.value()) {
                                             remember(row);
                                             rows.insert(row.key, row);
                                         }
                                     }
                                     done(rows, result.ok() ? StoreError::none() : result.error());
                                 });
}

void RowReader::invalidate()
{
    ++m_generation;
    m_fetching.clear();
}

void RowReader::setInFlight(int requests)
{
    if (requests == m_inFlight)
        return;
    m_inFlight = requests;
    emit inFlightChanged(requests);
}
