#pragma once

#include "dispatch/store/directorystore.h"
#include "models/serialjobqueue.h"

#include <QHash>
#include <QObject>
#include <QSet>

#include <functional>
#include <memory>
#include <optional>

// Rows of a store with round trips (a server) as the GUI reads them. Each key is fetched
// on a worker at most once at a time however many panels ask, and the row last read is
// kept with its updated_at, so asking again costs nothing while the table's summary
// carries the same stamp. Answers arrive as signals on this object's thread; an answer to
// a request made before invalidate() is dropped.
class RowReader final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowReader)

public:
    using RowsDone = std::function<void(const QHash<QString, Row> &rows, const StoreError &error)>;

    explicit RowReader(std::shared_ptr<const DirectoryStore> store, QObject *parent = nullptr);
    ~RowReader() override;

    // The row last read, when read at `updatedAt`.
    std::optional<Row> fresh(const QString &key, const QString &updatedAt) const;
    // The row last read, whatever its stamp: what an edit made while the server is away
    // starts from.
    std::optional<Row> lastRead(const QString &key) const;
    void remember(const Row &row);
    void forget(const QString &key);

    void fetch(const QString &key);
    bool isFetching(const QString &key) const { return m_fetching.contains(key); }
    // The rows among `keys` that exist, read in one request; `done` runs on this object's
    // thread, unless invalidate() came first.
    void fetchRows(const QStringList &keys, RowsDone done);
    // Answers still on their way are dropped; the rows last read are kept.
    void invalidate();
    int inFlight() const { return m_inFlight; }

signals:
    // `row` is nullopt when the store has no such row.
    void fetched(const QString &key, const std::optional<Row> &row);
    void fetchFailed(const QString &key, const StoreError &error);
    void inFlightChanged(int requests);

private:
    // Runs `work` on the worker, then `deliver` here with its result, if still current.
    template<typename Result>
    void run(std::function<Result(const DirectoryStore &)> work, std::function<void(const Result &)> deliver);
    void setInFlight(int requests);

    std::shared_ptr<const DirectoryStore> m_store;
    SerialJobQueue m_queue;
    QHash<QString, Row> m_rows;
    QSet<QString> m_fetching;
    quint64 m_generation = 0;
    int m_inFlight = 0;
};
