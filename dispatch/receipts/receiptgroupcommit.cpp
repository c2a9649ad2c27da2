#include "dispatch/receipts/receiptgroupcommit.h"

#include <utility>

using namespace Qt::StringLiterals;

ReceiptGroupCommit::ReceiptGroupCommit(Write write, int queuedFlushMs) : m_write(std::move(write))
{
    for (QTimer *timer : {&m_idle, &m_deadline}) {
        timer->setSingleShot(true);
        QObject::connect(timer, &QTimer::timeout, &m_context, [this] { flush(); });
    }
    m_idle.setInterval(0);
    m_deadline.setInterval(queuedFlushMs);
}

ReceiptGroupCommit::~ReceiptGroupCommit()
{
    const QList<Entry> left = std::exchange(m_queue, {});
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

void ReceiptGroupCommit::flush()
{
    m_idle.stop();
    m_deadline.stop();
    // Answers may queue more receipts (a flow's next step); those wait for their own turn.
    QList<Entry> now = std::exchange(m_queue, {});
    for (qsizetype from = 0; from < now.size(); from += kMaxBatch)
        writeBatch(now.mid(from, kMaxBatch));
}

void ReceiptGroupCommit::writeBatch(QList<Entry> batch)
{
    QList<Receipt> receipts;
    receipts.reserve(batch.size());
    for (const Entry &entry : std::as_const(batch))
        receipts.append(entry.receipt);
    const QList<StoreError> written = m_write(receipts);
    ++m_batches;
    for (qsizetype i = 0; i < batch.size(); ++i)
        answer(batch[i], i < written.size()
                             ? written[i]
                             : StoreError::make(StoreError::Kind::Io, u"no answer from the writer"_s));
}

void ReceiptGroupCommit::answer(Entry &entry, const StoreError &written)
{
    if (entry.release == Release::WhenQueued) {
        if (written.isError())
            rememberLost(entry.receipt, written);
        return;
    }
    if (written.isError()) {
        entry.done(written);
        return;
    }
    const QString lost = m_lostByTrace.take(entry.receipt.trace);
    if (!lost.isEmpty()) {
        m_lostOrder.removeOne(entry.receipt.trace);
        entry.done(StoreError::make(StoreError::Kind::Io, lost));
        return;
    }
    entry.done(entry.receipt);
}

void ReceiptGroupCommit::rememberLost(const Receipt &receipt, const StoreError &why)
{
    if (m_lostByTrace.contains(receipt.trace))
        return;
    if (m_lostOrder.size() >= kMaxLostTraces)
        m_lostByTrace.remove(m_lostOrder.takeFirst());
    m_lostByTrace.insert(receipt.trace,
                         u"its own receipt is written, but that of its step %1 (%2) is not: %3"_s.arg(
                             receipt.key, receipt.invocationId, why.message));
    m_lostOrder.append(receipt.trace);
}
