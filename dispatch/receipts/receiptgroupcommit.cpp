#include "dispatch/receipts/receiptgroupcommit.h"

#include <algorithm>
#include <chrono>
#include <utility>

using namespace Qt::StringLiterals;

ReceiptGroupCommit::ReceiptGroupCommit(Write write, int queuedFlushMs) : m_write(std::move(write))
{
    for (QTimer *timer : {&m_idle, &m_deadline}) {
        timer->setSingleShot(true);
        QObject::connect(timer, &QTimer::timeout, &m_context, [this] { pump(); });
    }
    m_idle.setInterval(0);
    m_deadline.setInterval(queuedFlushMs);
}

ReceiptGroupCommit::~ReceiptGroupCommit()
{
    QList<Entry> left = std::exchange(m_queue, {});
    if (m_inFlight)
        left = m_inFlight->batch + left;
    for (const Entry &entry : left) {
        if (entry.release == Release::WhenDurable)
            entry.done(StoreError::make(
                StoreError::Kind::Io, u"the receipt of %1 was not written: the directory closed first"_s.arg(
                                          entry.receipt.invocationId)));
    }
}

void ReceiptGroupCommit::add(Receipt receipt, Release release, Done done)
{
    if (release == Release::WhenDurable) {
        m_queue.append(Entry{std::move(receipt), release, std::move(done)});
        m_idle.start();
        return;
    }
    // Queued before its caller goes on, so a flush() that caller asks for (before a step
    // that changes the world) writes it.
    const Receipt signedReceipt = receipt;
    m_queue.append(Entry{std::move(receipt), release, {}});
    if (!m_idle.isActive() && !m_deadline.isActive())
        m_deadline.start();
    done(signedReceipt);
}

void ReceiptGroupCommit::pump()
{
    if (!m_inFlight && !m_queue.isEmpty())
        startBatch();
}

void ReceiptGroupCommit::startBatch()
{
    Q_ASSERT(!m_inFlight);
    const qsizetype take = std::min(qsizetype(kMaxBatch), m_queue.size());
    InFlight flight;
    flight.batch = m_queue.mid(0, take);
    m_queue.remove(0, take);
    QList<Receipt> receipts;
    receipts.reserve(flight.batch.size());
    for (const Entry &entry : std::as_const(flight.batch))
        receipts.append(entry.receipt);
    flight.result = m_write(receipts);
    m_inFlight = std::move(flight);
}

void ReceiptGroupCommit::landReady()
{
    const std::weak_ptr<int> alive = m_alive;
    if (m_inFlight && m_inFlight->result.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
        land();
    if (!alive.expired())
        pump();
}

StoreError ReceiptGroupCommit::land()
{
    if (!m_inFlight)
        return StoreError::none();
    // Taken out before any caller hears back: an answer may queue more receipts (a flow's
    // next step) or ask for a flush (a step that changes the world).
    InFlight flight = std::move(*m_inFlight);
    m_inFlight.reset();
    const std::weak_ptr<int> alive = m_alive;
    const QList<StoreError> written = flight.result.get();
    ++m_batches;
    StoreError first;
    for (qsizetype i = 0; i < flight.batch.size(); ++i) {
        const StoreError error = i < written.size()
                                     ? written[i]
                                     : StoreError::make(StoreError::Kind::Io, u"no answer from the writer"_s);
        if (!first.isError())
            first = error;
        answer(flight.batch[i], error);
        // A caller's answer may close the directory, and this with it.
        if (alive.expired())
            break;
    }
    return first;
}

StoreError ReceiptGroupCommit::flush()
{
    m_idle.stop();
    m_deadline.stop();
    // The batch in flight is older than anything queued, so it lands first and the order
    // holds. Then the queue goes a batch at a time from the front; answers may queue more
    // receipts (a flow's next step), and those wait for their own turn.
    const std::weak_ptr<int> alive = m_alive;
    StoreError first = land();
    for (qsizetype left = m_queue.size(); !alive.expired() && left > 0 && !m_queue.isEmpty();) {
        // An answer that ran an event loop of its own may have let the timers start one.
        land();
        if (alive.expired())
            break;
        left -= std::min(qsizetype(kMaxBatch), m_queue.size());
        startBatch();
        const StoreError error = land();
        if (!first.isError())
            first = error;
    }
    return first;
}

void ReceiptGroupCommit::answer(Entry &entry, const StoreError &written)
{
    const Receipt &receipt = entry.receipt;
    if (entry.release == Release::WhenQueued) {
        if (written.isError())
            rememberLost(receipt.parent,
                         u"its own receipt is written, but that of its step %1 (%2) is not: %3"_s.arg(
                             receipt.key, receipt.invocationId, written.message));
        // A nested flow that lost a step's receipt passes the loss up to its own flow.
        if (const QString lost = takeLost(receipt.invocationId); !lost.isEmpty())
            rememberLost(receipt.parent, lost);
        return;
    }
    const QString lost = takeLost(receipt.invocationId);
    if (written.isError()) {
        entry.done(written);
        return;
    }
    if (!lost.isEmpty()) {
        entry.done(StoreError::make(StoreError::Kind::Io, lost));
        return;
    }
    entry.done(receipt);
}

void ReceiptGroupCommit::rememberLost(const QString &parent, const QString &why)
{
    if (parent.isEmpty() || m_lostByParent.contains(parent))
        return;
    if (m_lostOrder.size() >= kMaxLostParents) {
        const QString dropped = m_lostOrder.takeFirst();
        qWarning("receipts: %s", qPrintable(u"no flow answered for %1, whose %2"_s.arg(
                                     dropped, m_lostByParent.take(dropped))));
    }
    m_lostByParent.insert(parent, why);
    m_lostOrder.append(parent);
}

QString ReceiptGroupCommit::takeLost(const QString &invocationId)
{
    QString lost = m_lostByParent.take(invocationId);
    if (!lost.isEmpty())
        m_lostOrder.removeOne(invocationId);
    return lost;
}
