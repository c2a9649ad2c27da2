#include "models/receipttablemodel.h"

#include "dispatch/receipts/receiptsummaryreader.h"

#include <QDateTime>
#include <QLocale>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

using Field = ReceiptSummaryTable::Field;

namespace {

std::string lowercaseUtf8(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::string folded(bytes.constData(), std::size_t(bytes.size()));
    std::transform(folded.begin(), folded.end(), folded.begin(),
                   [](char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; });
    return folded;
}

// A filter worked out once against one table, so that testing a receipt costs a few
// comparisons: keys are matched once per distinct key, ids in one pass over the arena.
class PreparedFilter final
{
public:
    PreparedFilter(const ReceiptSummaryTable &table, const ReceiptFilter &filter)
        : m_table(table), m_from(filter.fromMsecs), m_to(filter.toMsecs)
    {
        if (!filter.key.isEmpty()) {
            const std::string needle = lowercaseUtf8(filter.key);
            m_keyHits.resize(std::size_t(table.distinctCount(Field::Key)));
            for (std::size_t id = 0; id < m_keyHits.size(); ++id) {
                const std::string key =
                    lowercaseUtf8(QString::fromStdString(table.text(Field::Key, std::uint32_t(id))));
                m_keyHits[id] = key.find(needle) != std::string::npos;
            }
        }
        if (!filter.status.isEmpty()) {
            const QByteArray status = filter.status.toUtf8();
            m_status =
                table.idOf(Field::Status, std::string_view(status.constData(), std::size_t(status.size())));
            m_anyStatus = false;
        }
        if (!filter.actor.isEmpty()) {
            const QByteArray actor = filter.actor.toUtf8();
            m_actor =
                table.idOf(Field::Actor, std::string_view(actor.constData(), std::size_t(actor.size())));
            m_anyActor = false;
        }
        if (!filter.search.isEmpty())
            m_idHits = table.idsContaining(lowercaseUtf8(filter.search));
    }

    bool accepts(int index) const
    {
        const qint64 started = m_table.startedMsecs(index);
        return started >= m_from && started <= m_to
               && (m_anyStatus || qint64(m_table.textId(index, Field::Status)) == m_status)
               && (m_anyActor || qint64(m_table.textId(index, Field::Actor)) == m_actor)
               && (m_keyHits.empty() || m_keyHits[m_table.textId(index, Field::Key)])
               && (m_idHits.empty() || m_idHits[std::size_t(index)]);
    }

private:
    const ReceiptSummaryTable &m_table;
    qint64 m_from;
    qint64 m_to;
    bool m_anyStatus = true;
    qint64 m_status = -1; // -1: no receipt has the wanted status
    bool m_anyActor = true;
    qint64 m_actor = -1; // -1: no receipt has the wanted actor
    std::vector<char> m_keyHits; // per key id; empty: every key
    std::vector<char> m_idHits; // per receipt; empty: no search
};

StoreError readInto(const ReceiptSummaryReader &receipts, qint64 afterSeq, int newestOnly,
                    ReceiptSummaryTable &into)
{
    return receipts.read(afterSeq, newestOnly,
                         [&into](const ReceiptSummaryView &receipt) { into.append(receipt); });
}

} // namespace

// One read from the store, made on a worker.
struct ReceiptTableModel::Chunk
{
    ReceiptSummaryTable table;
    StoreError error;
    qint64 afterSeq = 0;
};

ReceiptTableModel::ReceiptTableModel(QObject *parent) : QAbstractTableModel(parent) {}

ReceiptTableModel::~ReceiptTableModel()
{
    discardRead();
}

void ReceiptTableModel::discardRead()
{
    // The worker reads through m_receipts, so it must be done before the reader may go.
    if (m_watcher)
        m_watcher->waitForFinished();
    delete m_watcher;
    m_watcher = nullptr;
    m_refreshPending = false;
}

StoreError ReceiptTableModel::load(std::shared_ptr<const ReceiptSummaryReader> receipts)
{
    discardRead();
    m_receipts = std::move(receipts);
    ReceiptSummaryTable table;
    const StoreError error = readInto(*m_receipts, 0, 0, table);
    if (error.isError())
        return error;
    install(std::move(table));
    return StoreError::none();
}

StoreError ReceiptTableModel::loadProgressively(std::shared_ptr<const ReceiptSummaryReader> receipts,
                                                int firstPage)
{
    discardRead();
    m_receipts = std::move(receipts);
    ReceiptSummaryTable newest;
    const StoreError error = readInto(*m_receipts, 0, firstPage, newest);
    if (error.isError())
        return error;
    install(std::move(newest));
    startRead(0);
    return StoreError::none();
}

void ReceiptTableModel::refresh()
{
    if (!m_receipts)
        return;
    if (m_watcher) {
        m_refreshPending = true;
        return;
    }
    startRead(m_table.lastSeq());
}

void ReceiptTableModel::startRead(qint64 afterSeq)
{
    m_watcher = new QFutureWatcher<std::shared_ptr<Chunk>>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, &ReceiptTableModel::readFinished);
    const ReceiptSummaryReader *receipts = m_receipts.get();
    m_watcher->setFuture(QtConcurrent::run([receipts, afterSeq] {
        auto chunk = std::make_shared<Chunk>();
        chunk->afterSeq = afterSeq;
        chunk->error = readInto(*receipts, afterSeq, 0, chunk->table);
        return chunk;
    }));
}

void ReceiptTableModel::readFinished()
{
    const std::shared_ptr<Chunk> chunk = m_watcher->result();
    m_watcher->deleteLater();
    m_watcher = nullptr;
    if (chunk->error.isError()) {
        emit loadFinished(chunk->error.message);
    } else {
        // A read after seq 0 is everything, so it replaces what the first page showed.
        if (chunk->afterSeq == 0)
            install(std::move(chunk->table));
        else
            appendNewer(chunk->table);
        emit loadFinished(QString());
    }
    if (std::exchange(m_refreshPending, false))
        refresh();
}

void ReceiptTableModel::install(ReceiptSummaryTable &&table)
{
    relayout([&] {
        m_table = std::move(table);
        m_visible = filtered(m_filter);
    });
    emit choicesChanged();
}

void ReceiptTableModel::appendNewer(const ReceiptSummaryTable &newer)
{
    if (newer.size() == 0)
        return;
    const int first = m_table.size();
    const int statusesBefore = m_table.distinctCount(Field::Status);
    const int actorsBefore = m_table.distinctCount(Field::Actor);
    m_table.appendAll(newer);
    const PreparedFilter filter(m_table, m_filter);
    std::vector<int> shown;
    for (int index = first; index < m_table.size(); ++index) {
        if (filter.accepts(index))
            shown.push_back(index);
    }
    // Newer receipts go on top, so the rows below and their selection stay put.
    if (!shown.empty()) {
        beginInsertRows({}, 0, int(shown.size()) - 1);
        m_visible.insert(m_visible.end(), shown.begin(), shown.end());
        endInsertRows();
    }
    emit countsChanged(rowCount(), totalReceipts());
    if (m_table.distinctCount(Field::Status) != statusesBefore
        || m_table.distinctCount(Field::Actor) != actorsBefore)
        emit choicesChanged();
}

void ReceiptTableModel::setFilter(const ReceiptFilter &filter)
{
    if (filter == m_filter)
        return;
    std::vector<int> visible = filtered(filter);
    // Typing on while the same receipts match (every key has "rk_") changes no row, so
    // the view is spared a relayout of 100,000 rows.
    if (visible == m_visible) {
        m_filter = filter;
        return;
    }
    relayout([&] {
        m_filter = filter;
        m_visible = std::move(visible);
    });
}

std::vector<int> ReceiptTableModel::filtered(const ReceiptFilter &filter) const
{
    std::vector<int> visible;
    if (filter == ReceiptFilter()) {
        visible.resize(std::size_t(m_table.size()));
        for (int i = 0; i < m_table.size(); ++i)
            visible[std::size_t(i)] = i;
        return visible;
    }
    const PreparedFilter prepared(m_table, filter);
    for (int i = 0; i < m_table.size(); ++i) {
        if (prepared.accepts(i))
            visible.push_back(i);
    }
    return visible;
}

int ReceiptTableModel::rowOfIndex(int index) const
{
    const auto it = std::lower_bound(m_visible.begin(), m_visible.end(), index);
    if (it == m_visible.end() || *it != index)
        return -1;
    return int(m_visible.end() - it) - 1;
}

void ReceiptTableModel::relayout(const std::function<void()> &change)
{
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // Persistent indexes follow their receipt by seq, which survives a reload.
    const QModelIndexList before = persistentIndexList();
    std::vector<qint64> seqs;
    seqs.reserve(std::size_t(before.size()));
    for (const QModelIndex &index : before)
        seqs.push_back(index.isValid() ? m_table.seq(indexAt(index.row())) : -1);

    change();

    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype p = 0; p < before.size(); ++p) {
        const int i = seqs[std::size_t(p)] < 0 ? -1 : m_table.indexOfSeq(seqs[std::size_t(p)]);
        const int row = i < 0 ? -1 : rowOfIndex(i);
        after.append(row < 0 ? QModelIndex() : index(row, before[p].column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    emit countsChanged(rowCount(), totalReceipts());
}

QStringList ReceiptTableModel::distinctTexts(Field field) const
{
    QStringList names;
    for (int id = 0; id < m_table.distinctCount(field); ++id)
        names.append(QString::fromStdString(m_table.text(field, std::uint32_t(id))));
    names.sort();
    return names;
}

QStringList ReceiptTableModel::statuses() const
{
    return distinctTexts(Field::Status);
}

QStringList ReceiptTableModel::actors() const
{
    return distinctTexts(Field::Actor);
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
    return index < 0 ? -1 : rowOfIndex(index);
}

QList<QPointF> ReceiptTableModel::durationsOf(const QString &key) const
{
    const QByteArray utf8 = key.toUtf8();
    const qint64 id = m_table.idOf(Field::Key, std::string_view(utf8.constData(), std::size_t(utf8.size())));
    QList<QPointF> points;
    if (id < 0)
        return points;
    for (int i = 0; i < m_table.size(); ++i) {
        if (m_table.textId(i, Field::Key) == std::uint32_t(id))
            points.append(QPointF(double(m_table.startedMsecs(i)), double(m_table.durationMs(i))));
    }
    return points;
}

int ReceiptTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_visible.size());
}

int ReceiptTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ReceiptTableModel::durationText(qint64 ms)
{
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    return tr("%1 s").arg(double(ms) / 1000.0, 0, 'f', ms < 10000 ? 2 : 1);
}

QString ReceiptTableModel::receiptsText(int count)
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
