#pragma once

#include "dispatch/store/changeset.h"
#include "dispatch/store/directorystore.h"
#include "models/serialjobqueue.h"

#include <QObject>

#include <functional>
#include <memory>

// The writes of a store with round trips (a server), one at a time, on a worker: the GUI
// thread only starts them and is told how they ended. cancel() stops the running write
// before its next request is sent; a queued one is dropped unsent.
class StoreWriter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StoreWriter)

public:
    struct Result
    {
        StoreError error;
        QList<WriteOutcome> written; // rows that reached the server, in order
    };
    using Done = std::function<void(const Result &)>;

    explicit StoreWriter(std::shared_ptr<DirectoryStore> store, QObject *parent = nullptr);
    ~StoreWriter() override;

    // `done` runs on this object's thread, once.
    void write(ChangeSet changes, Done done);
    bool isWriting() const { return m_tracking != nullptr; }
    void cancel();

signals:
    void writingChanged(bool writing);

private:
    void finish(const Result &result);

    std::shared_ptr<DirectoryStore> m_store;
    SerialJobQueue m_queue;
    std::shared_ptr<ApplyTracking> m_tracking;
    quint64 m_job = 0;
    Done m_done;
};
