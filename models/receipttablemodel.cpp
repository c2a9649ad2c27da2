#include "models/receipttablemodel.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QtConcurrent/QtConcurrentRun>

#include <string>
#include <vector>

using Field = ReceiptSummaryTable::Field;

namespace {

// A page read newest first, held until it can be added to a table oldest first.
class NewestFirst final
{
public:
    void add(const ReceiptSummaryView &receipt)
    {
        Owned owned{receipt.seq, {}, receipt.durationMs, receipt.material};
        const std::string_view texts[] = {receipt.invocationId, receipt.trace, receipt.parent,
                                          receipt.key,          receipt.actor, receipt.runner,
                                          receipt.startedAt,    receipt.status};
        for (std::size_t i = 0; i < std::size(texts); ++i)
            owned.texts[i].assign(texts[i]);
        m_receipts.push_back(std::move(owned));
    }

    void appendOldestFirstTo(ReceiptSummaryTable &table) const
    {
        table.reserve(table.size() + int(m_receipts.size()));
        for (auto it = m_receipts.rbegin(); it != m_receipts.rend(); ++it) {
            ReceiptSummaryView view;
            view.seq = it->seq;
            view.invocationId = it->texts[0];
            view.trace = it->texts[1];
            view.parent = it->texts[2];
            view.key = it->texts[3];
            view.actor = it->texts[4];
            view.runner = it->texts[5];
            view.startedAt = it->texts[6];
            view.status = it->texts[7];
            view.durationMs = it->durationMs;
            view.material = it->material;
            table.append(view);
        }
    }

private:
    struct Owned
    {
        qint64 seq = 0;
        std::string texts[8];
        qint64 durationMs = 0;
        bool material = false;
    };
    std::vector<Owned> m_receipts;
};

} // namespace

// What a worker is asked to read.
struct ReceiptTableModel::Job
{
    enum class Kind { FirstPage, Older, Newer, Count };
    Kind kind = Kind::FirstPage;
    quint64 generation = 0;
    ReceiptFilter filter;
    qint64 beforeSeq = 0; // Older: below this
    qint64 afterSeq = 0; // Newer: listed above this; Count: the newest seq counted before (0: none)
    qint64 archives = 0; // Count: the archives counted before
    int wanted = kPageSize;
};

// What it brought back.
struct ReceiptTableModel::Chunk
{
    Job job;
    ReceiptSummaryTable table; // oldest first
    ReceiptSummaryReader::Scan scan;
    qint64 newestSeq = 0;
    qint64 total = 0; // Count: every receipt,
    qint64 countedThroughSeq = 0; // up to this seq,
    qint64 archives = 0; // the archives taken
    QString archivedBefore; // and the latest one's cutoff
    QStringList statuses;
    QStringList actors;
    bool overflow = false; // Newer: more than kMaxNewer arrived
    StoreError error;
};

ReceiptTableModel::ReceiptTableModel(QObject *parent) : QAbstractTableModel(parent) {}

// A read still under way finishes on its worker, which owns what it reads with, and its
// result is dropped with the watcher: closing the dock never waits for the database.
ReceiptTableModel::~ReceiptTableModel() = default;

std::shared_ptr<ReceiptTableModel::Chunk>
ReceiptTableModel::readOnWorker(std::shared_ptr<const ReceiptSummaryReader> receipts, const Job &job)
{
    auto chunk = std::make_shared<Chunk>(run(*receipts, job));
    // The model may be gone, and this the last hold on the store: a store is closed on the
    // thread that opened its connection, never on a worker.
    QMetaObject::invokeMethod(
        QCoreApplication::instance(), [receipts = std::move(receipts)] {}, Qt::QueuedConnection);
    return chunk;
}

ReceiptTableModel::Chunk ReceiptTableModel::run(const ReceiptSummaryReader &receipts, const Job &job)
{
    Chunk chunk;
    chunk.job = job;
    switch (job.kind) {
    case Job::Kind::FirstPage: {
        const StoreResult<qint64> newest = receipts.newestSeq();
        if (!newest.ok()) {
            chunk.error = newest.error();
            break;
        }
        chunk.newestSeq = newest.value();
        readOlder(receipts, job, chunk.newestSeq + 1, chunk);
        break;
    }
    case Job::Kind::Older:
        readOlder(receipts, job, job.beforeSeq, chunk);
        break;
    case Job::Kind::Newer: {
        const StoreResult<qint64> newest = receipts.newestSeq();
        if (!newest.ok()) {
            chunk.error = newest.error();
            break;
        }
        chunk.newestSeq = newest.value();
        chunk.error =
            receipts.newer(job.filter, job.afterSeq, chunk.newestSeq, kMaxNewer + 1,
                           [&chunk](const ReceiptSummaryView &receipt) { chunk.table.append(receipt); });
        chunk.overflow = chunk.table.size() > kMaxNewer;
        break;
    }
    case Job::Kind::Count:
        count(receipts, job, chunk);
        break;
    }
    return chunk;
}

void ReceiptTableModel::readOlder(const ReceiptSummaryReader &receipts, const Job &job, qint64 beforeSeq,
                                  Chunk &chunk)
{
    NewestFirst page;
    const auto scan = receipts.older(job.filter, beforeSeq, job.wanted, kReadBudgetMs,
                                     [&page](const ReceiptSummaryView &receipt) { page.add(receipt); });
    if (!scan.ok()) {
        chunk.error = scan.error();
        return;
    }
    chunk.scan = scan.value();
    page.appendOldestFirstTo(chunk.table);
}

// The directory keeps its count (migration 0193), so a refresh reads it anew rather than
// counting what arrived.
void ReceiptTableModel::count(const ReceiptSummaryReader &receipts, const Job &job, Chunk &chunk)
{
    const auto total = receipts.total();
    if (!total.ok()) {
        chunk.error = total.error();
        return;
    }
    chunk.total = total.value().count;
    chunk.countedThroughSeq = total.value().throughSeq;
    chunk.archives = total.value().archives;
    chunk.archivedBefore = total.value().archivedBefore;
    // New receipts may bring a status or a caller not offered yet, and an archive may take
    // the last receipt of one away.
    if (job.afterSeq > 0 && chunk.countedThroughSeq <= job.afterSeq && chunk.archives == job.archives)
        return;
    const auto statuses = receipts.distinct(ReceiptSummaryReader::Column::Status);
    const auto actors = receipts.distinct(ReceiptSummaryReader::Column::Actor);
    if (!statuses.ok() || !actors.ok()) {
        chunk.error = statuses.ok() ? actors.error() : statuses.error();
        return;
    }
    chunk.statuses = statuses.value();
    chunk.actors = actors.value();
}

ReceiptTableModel::Job ReceiptTableModel::firstPageJob() const
{
    Job job;
    job.kind = Job::Kind::FirstPage;
    job.generation = m_generation;
    job.filter = m_filter;
    job.wanted = kPageSize;
    return job;
}

StoreError ReceiptTableModel::load(std::shared_ptr<const ReceiptSummaryReader> receipts)
{
    // What runs now reads from the old reader: its results are dropped by generation.
    delete std::exchange(m_watcher, nullptr);
    delete std::exchange(m_countWatcher, nullptr);
    m_pending.reset();
    m_receipts = std::move(receipts);
    forgetCounts();
    std::optional<Job> job = firstPageJob();
    while (job) {
        Chunk chunk = run(*m_receipts, *job);
        if (chunk.error.isError()) {
            fail(chunk);
            return chunk.error;
        }
        apply(chunk);
        job = nextJob();
    }
    if (std::optional<Job> counting = countJob()) {
        Chunk chunk = run(*m_receipts, *counting);
        if (chunk.error.isError())
            return chunk.error;
        apply(chunk);
    }
    return StoreError::none();
}

void ReceiptTableModel::loadProgressively(std::shared_ptr<const ReceiptSummaryReader> receipts)
{
    m_receipts = std::move(receipts);
    forgetCounts();
    start(firstPageJob());
    countIfBehind();
}

void ReceiptTableModel::forgetCounts()
{
    ++m_generation;
    ++m_readerGeneration;
    m_total = -1;
    m_countedThroughSeq = 0;
    m_recount = false;
    m_archives = -1;
    m_archivedBefore.clear();
    m_lastCountError.clear();
    m_countFailed = false;
    m_failed = false;
    m_error.clear();
    m_newestSeq = 0;
    m_refreshPending = false;
    m_wanted = kPageSize;
}

void ReceiptTableModel::setFilter(const ReceiptFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    if (m_receipts)
        startOver();
}

void ReceiptTableModel::refresh()
{
    if (!m_receipts)
        return;
    m_countFailed = false;
    m_recount = true;
    countIfBehind();
    if (m_watcher) {
        m_refreshPending = true;
        return;
    }
    start(refreshJob());
}

ReceiptTableModel::Job ReceiptTableModel::refreshJob()
{
    if (std::exchange(m_failed, false)) {
        // Nothing is listed after a failure: the list is read anew, not added to.
        ++m_generation;
        m_wanted = kPageSize;
        return firstPageJob();
    }
    Job job;
    job.kind = Job::Kind::Newer;
    job.generation = m_generation;
    job.filter = m_filter;
    job.afterSeq = m_newestSeq;
    return job;
}

bool ReceiptTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_receipts && !m_exhausted && !m_failed;
}

void ReceiptTableModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_wanted = m_table.size() + kPageSize;
    if (!m_watcher) {
        if (std::optional<Job> job = nextJob())
            start(*job);
    }
}

std::optional<ReceiptTableModel::Job> ReceiptTableModel::nextJob()
{
    if (m_pending) {
        Job job = *m_pending;
        m_pending.reset();
        return job;
    }
    if (!m_exhausted && !m_failed && m_table.size() < m_wanted) {
        Job job;
        job.kind = Job::Kind::Older;
        job.generation = m_generation;
        job.filter = m_filter;
        job.beforeSeq = m_nextBeforeSeq;
        job.wanted = m_wanted - m_table.size();
        return job;
    }
    if (std::exchange(m_refreshPending, false))
        return refreshJob();
    return std::nullopt;
}

std::optional<ReceiptTableModel::Job> ReceiptTableModel::countJob() const
{
    if (m_countFailed || (!m_recount && m_total >= 0 && m_countedThroughSeq >= m_newestSeq))
        return std::nullopt;
    Job job;
    job.kind = Job::Kind::Count;
    job.generation = m_readerGeneration;
    job.afterSeq = m_total < 0 ? 0 : m_countedThroughSeq;
    job.archives = m_archives;
    return job;
}

void ReceiptTableModel::countIfBehind()
{
    if (m_countWatcher || !m_receipts)
        return;
    const std::optional<Job> job = countJob();
    if (!job)
        return;
    m_recount = false;
    // Beside the pages, not before them: a first count of a long log must not hold up a filter.
    m_countWatcher = new QFutureWatcher<std::shared_ptr<Chunk>>(this);
    connect(m_countWatcher, &QFutureWatcherBase::finished, this, &ReceiptTableModel::countFinished);
    m_countWatcher->setFuture(QtConcurrent::run(readOnWorker, m_receipts, *job));
}

void ReceiptTableModel::countFinished()
{
    const std::shared_ptr<Chunk> chunk = m_countWatcher->result();
    m_countWatcher->deleteLater();
    m_countWatcher = nullptr;
    if (chunk->job.generation == m_readerGeneration) {
        if (chunk->error.isError()) {
            // Not retried by itself: the next refresh or reload tries again, and says so only
            // if it fails otherwise, so a follow that keeps failing does not say it every look.
            m_countFailed = true;
            if (chunk->error.message != std::exchange(m_lastCountError, chunk->error.message))
                m_error = chunk->error.message;
        } else {
            m_lastCountError.clear();
            apply(*chunk);
        }
    }
    countIfBehind();
    // Said again only when no page is read: a page's own end was said without waiting.
    if (!m_watcher)
        emit loadFinished(std::exchange(m_error, QString()));
}

void ReceiptTableModel::fail(const Chunk &chunk)
{
    m_failed = true;
    if (chunk.job.kind != Job::Kind::FirstPage)
        return;
    // The rows of the filter before would pass for this one's.
    beginResetModel();
    m_table = ReceiptSummaryTable();
    m_exhausted = true;
    endResetModel();
    emit countsChanged(rowCount(), m_total);
}

void ReceiptTableModel::start(const Job &job)
{
    if (m_watcher) {
        // One read at a time; the newest wish replaces an older one still waiting.
        m_pending = std::make_unique<Job>(job);
        return;
    }
    m_watcher = new QFutureWatcher<std::shared_ptr<Chunk>>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, &ReceiptTableModel::finished);
    m_watcher->setFuture(QtConcurrent::run(readOnWorker, m_receipts, job));
}

void ReceiptTableModel::finished()
{
    const std::shared_ptr<Chunk> chunk = m_watcher->result();
    if (chunk->job.generation == m_generation) {
        if (chunk->error.isError()) {
            // Not retried by itself: the next filter, refresh or reload tries again.
            fail(*chunk);
            m_error = chunk->error.message;
        } else {
            apply(*chunk);
        }
    }
    // Only now: a view asks for more while rows go in, and that must not start a second read.
    m_watcher->deleteLater();
    m_watcher = nullptr;
    countIfBehind();
    if (std::optional<Job> job = nextJob()) {
        start(*job);
        return;
    }
    emit loadFinished(std::exchange(m_error, QString()));
}

void ReceiptTableModel::apply(Chunk &chunk)
{
    switch (chunk.job.kind) {
    case Job::Kind::FirstPage:
        applyFirstPage(chunk);
        break;
    case Job::Kind::Older:
        applyOlder(chunk);
        break;
    case Job::Kind::Newer:
        applyNewer(chunk);
        break;
    case Job::Kind::Count:
        applyCount(chunk);
        break;
    }
    emit countsChanged(rowCount(), m_total);
}

void ReceiptTableModel::applyFirstPage(Chunk &chunk)
{
    beginResetModel();
    m_table = std::move(chunk.table);
    m_nextBeforeSeq = chunk.scan.nextBeforeSeq;
    m_exhausted = chunk.scan.exhausted;
    m_newestSeq = std::max(m_newestSeq, chunk.newestSeq);
    endResetModel();
}

void ReceiptTableModel::applyOlder(Chunk &chunk)
{
    m_nextBeforeSeq = chunk.scan.nextBeforeSeq;
    m_exhausted = chunk.scan.exhausted;
    const int added = chunk.table.size();
    if (added == 0)
        return;
    // Older receipts go at the bottom; the rows above keep their numbers.
    beginInsertRows({}, rowCount(), rowCount() + added - 1);
    ReceiptSummaryTable merged = std::move(chunk.table);
    merged.appendAll(m_table);
    m_table = std::move(merged);
    endInsertRows();
}

void ReceiptTableModel::applyNewer(Chunk &chunk)
{
    if (chunk.overflow) {
        // Too many to add one by one: the list starts over from the newest.
        m_pending = std::make_unique<Job>(firstPageJob());
        return;
    }
    m_newestSeq = std::max(m_newestSeq, chunk.newestSeq);
    const int added = chunk.table.size();
    if (added > 0) {
        // Newer receipts go on top, so the rows below and their selection stay put.
        beginInsertRows({}, 0, added - 1);
        m_table.appendAll(chunk.table);
        endInsertRows();
    }
}

void ReceiptTableModel::applyCount(const Chunk &chunk)
{
    const bool archived = m_archives >= 0 && chunk.archives != m_archives;
    m_total = chunk.total;
    m_countedThroughSeq = chunk.countedThroughSeq;
    m_archives = chunk.archives;
    m_archivedBefore = chunk.archivedBefore;
    if (archived) {
        startOver();
        emit archivedSince();
    }
    if (chunk.statuses.isEmpty() && chunk.actors.isEmpty())
        return;
    if (chunk.statuses == m_statuses && chunk.actors == m_actors)
        return;
    m_statuses = chunk.statuses;
    m_actors = chunk.actors;
    emit choicesChanged();
}

void ReceiptTableModel::startOver()
{
    // A read under way answers for the list before: the generation drops it.
    ++m_generation;
    m_wanted = kPageSize;
    m_failed = false;
    m_refreshPending = false;
    // An archive may have taken the newest receipt looked at; the first page says which is
    // newest now (else the count would always look behind it).
    m_newestSeq = 0;
    // The rows shown stay until the new ones come, so typing never blanks the list.
    start(firstPageJob());
}

QString ReceiptTableModel::invocationIdAt(int row) const
{
    if (row < 0 || row >= rowCount())
        return {};
    return m_table.invocationId(indexAt(row));
}

int ReceiptTableModel::rowOfInvocation(const QString &invocationId) const
{
    const QByteArray id = invocationId.toUtf8();
    const int index = m_table.indexOfInvocation(std::string_view(id.constData(), std::size_t(id.size())));
    return index < 0 ? -1 : indexAt(index);
}

int ReceiptTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_table.size();
}

int ReceiptTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ReceiptTableModel::durationText(qint64 ms)
{
    // A receipt counts whole milliseconds: 0 is a call that took less than one.
    if (ms <= 0)
        return tr("< 1 ms");
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    return tr("%1 s").arg(double(ms) / 1000.0, 0, 'f', ms < 10000 ? 2 : 1);
}

QString ReceiptTableModel::receiptsText(qint64 count)
{
    return count == 1 ? tr("1 receipt") : tr("%1 receipts").arg(QLocale().toString(count));
}

QString ReceiptTableModel::timeText(qint64 msecs)
{
    return QDateTime::fromMSecsSinceEpoch(msecs, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}
QVariant ReceiptTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int i = indexAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return timeText(m_table.startedMsecs(i));
        case KeyColumn:
            return m_table.textOf(i, Field::Key);
        case RunnerColumn:
            return m_table.textOf(i, Field::Runner);
        case ActorColumn:
            return m_table.textOf(i, Field::Actor);
        case DurationColumn:
            return durationText(m_table.durationMs(i));
        case MaterialColumn:
            return m_table.material(i) ? tr("yes") : tr("no");
        case StatusColumn:
            return m_table.textOf(i, Field::Status);
        }
        break;
    case Qt::ToolTipRole:
        return tr("%1 in trace %2").arg(m_table.invocationId(i), m_table.trace(i));
    case Qt::TextAlignmentRole:
        if (index.column() == DurationColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case InvocationIdRole:
        return m_table.invocationId(i);
    case KeyRole:
        return m_table.textOf(i, Field::Key);
    case StartedMsecsRole:
        return m_table.startedMsecs(i);
    case DurationMsRole:
        return m_table.durationMs(i);
    }
    return {};
}

QVariant ReceiptTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Started (UTC)");
    case KeyColumn:
        return tr("Key");
    case RunnerColumn:
        return tr("Runner");
    case ActorColumn:
        return tr("Actor");
    case DurationColumn:
        return tr("Duration");
    case MaterialColumn:
        return tr("Material");
    case StatusColumn:
        return tr("Status");
    }
    return {};
}
