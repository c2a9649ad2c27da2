#include "models/storewriter.h"

#include "models/guithreadinbox.h"

#include <QPointer>

StoreWriter::StoreWriter(std::shared_ptr<DirectoryStore> store, QObject *parent)
    : QObject(parent), m_store(std::move(store))
{}

StoreWriter::~StoreWriter()
{
    // A write already sent finishes on its own; nothing after it is sent.
    if (m_tracking)
        m_tracking->cancelled = true;
}

void StoreWriter::write(ChangeSet changes, Done done)
{
    Q_ASSERT(!m_tracking);
    m_tracking = std::make_shared<ApplyTracking>();
    m_done = std::move(done);
    QPointer<StoreWriter> self(this);
    m_job =
        m_queue.post([self, store = m_store, tracking = m_tracking, changes = std::move(changes)]() mutable {
            Result result;
            result.error = store->applyTracked(changes, *tracking);
            result.written = tracking->written;
            // The store goes back along with the answer: a server connection is only ever
            // released on the GUI thread.
            GuiThreadInbox::post([self, tracking, result, store = std::move(store)] {
                if (self && self->m_tracking == tracking)
                    self->finish(result);
            });
        });
    emit writingChanged(true);
}

void StoreWriter::cancel()
{
    if (!m_tracking)
        return;
    m_tracking->cancelled = true;
    if (m_queue.cancel(m_job)) {
        Result result;
        result.error = StoreError::make(StoreError::Kind::Cancelled,
                                        QStringLiteral("the save was cancelled before it was sent"));
        finish(result);
    }
}

void StoreWriter::finish(const Result &result)
{
    m_tracking.reset();
    const Done done = std::exchange(m_done, {});
    emit writingChanged(false);
    if (done)
        done(result);
}
