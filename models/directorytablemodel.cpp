#include "models/directorytablemodel.h"

#include "models/guithreadinbox.h"
#include "models/networkpool.h"
#include "models/shorttime.h"

#include <QFont>
#include <QFutureWatcher>
#include <QPointer>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace {

int compareBytes(std::string_view a, std::string_view b)
{
    return a.compare(b);
}

template<typename Less>
void insertSorted(std::vector<int> &list, int value, Less less)
{
    list.insert(std::upper_bound(list.begin(), list.end(), value, less), value);
}

} // namespace

DirectoryTableModel::DirectoryTableModel(QObject *parent) : QAbstractTableModel(parent) {}

DirectoryTableModel::~DirectoryTableModel()
{
    if (m_loadWatcher)
        m_loadWatcher->waitForFinished();
}

// A table read from the store, with its key index, built wherever the reading happened.
struct DirectoryTableModel::Snapshot
{
    SummaryTable table;
    std::vector<int> byKey;
    StoreError error;
};

std::shared_ptr<DirectoryTableModel::Snapshot> DirectoryTableModel::readSnapshot(const DirectoryStore &store,
                                                                                 int firstByKey)
{
    auto snapshot = std::make_shared<Snapshot>();
    SummaryTable &table = snapshot->table;
    snapshot->error = store.scanSummaryViews(
        [&table](const RowSummaryView &summary) { table.append(summary); }, firstByKey);
    snapshot->byKey = table.keyOrder();
    return snapshot;
}

void DirectoryTableModel::install(Snapshot &&snapshot)
{
    relayout([&] {
        m_table = std::move(snapshot.table);
        m_byKey = std::move(snapshot.byKey);
        rebuildOrder();
        markContentHits();
    });
    emit categoriesChanged();
}

StoreError DirectoryTableModel::load(const DirectoryStore &store)
{
    ++m_loadGeneration;
    m_loading = false;
    std::shared_ptr<Snapshot> snapshot = readSnapshot(store, 0);
    if (snapshot->error.isError())
        return snapshot->error;
    install(std::move(*snapshot));
    return StoreError::none();
}

StoreError DirectoryTableModel::loadProgressively(std::shared_ptr<const DirectoryStore> store, int firstPage)
{
    const quint64 generation = ++m_loadGeneration;
    if (store->hasRoundTrips()) {
        loadInBackground(std::move(store), firstPage, generation);
        return StoreError::none();
    }
    std::shared_ptr<Snapshot> first = readSnapshot(*store, firstPage);
    if (first->error.isError())
        return first->error;
    m_loading = true;
    install(std::move(*first));

    if (m_loadWatcher)
        m_loadWatcher->waitForFinished();
    delete m_loadWatcher;
    m_loadingStore = store;
    m_loadWatcher = new QFutureWatcher<std::shared_ptr<Snapshot>>(this);
    connect(m_loadWatcher, &QFutureWatcherBase::finished, this, [this, generation] {
        std::shared_ptr<Snapshot> full = m_loadWatcher->result();
        if (generation != m_loadGeneration)
            return; // a newer load replaced this one
        m_loading = false;
        if (full->error.isError()) {
            emit loadFinished(full->error.message);
            return;
        }
        install(std::move(*full));
        emit loadFinished(QString());
    });
    const DirectoryStore *reader = store.get();
    m_loadWatcher->setFuture(QtConcurrent::run([reader] { return readSnapshot(*reader, 0); }));
    return StoreError::none();
}

// Both pages are read on the network pool, and nothing here ever waits for them: a
// newer load, or this model's end, only makes their answers stale. The store is released
// on this thread, by the last answer, never by the worker.
void DirectoryTableModel::loadInBackground(std::shared_ptr<const DirectoryStore> store, int firstPage,
                                           quint64 generation)
{
    m_loading = true;
    QPointer<DirectoryTableModel> self(this);
    auto deliver = [self, generation](std::shared_ptr<const DirectoryStore> keep,
                                      std::shared_ptr<Snapshot> snapshot, bool complete) {
        GuiThreadInbox::post(
            [self, generation, keep = std::move(keep), snapshot = std::move(snapshot), complete] {
                if (self && generation == self->m_loadGeneration)
                    self->receivePage(*snapshot, complete);
            });
    };
    NetworkPool::instance().start([store = std::move(store), firstPage, deliver]() mutable {
        std::shared_ptr<Snapshot> first = readSnapshot(*store, firstPage);
        if (first->error.isError()) {
            deliver(std::move(store), std::move(first), true);
            return;
        }
        deliver(store, std::move(first), false);
        std::shared_ptr<Snapshot> full = readSnapshot(*store, 0);
        deliver(std::move(store), std::move(full), true);
    });
}

void DirectoryTableModel::receivePage(Snapshot &snapshot, bool complete)
{
    if (snapshot.error.isError()) {
        m_loading = false;
        emit loadFinished(snapshot.error.message);
        return;
    }
    m_loading = !complete;
    install(std::move(snapshot));
    if (complete)
        emit loadFinished(QString());
}

void DirectoryTableModel::setTypeIcons(const QHash<QString, QIcon> &icons)
{
    m_typeIcons = icons;
    if (!m_visible.empty())
        emit dataChanged(index(0, TypeColumn), index(rowCount() - 1, TypeColumn), {Qt::DecorationRole});
}

void DirectoryTableModel::setLintIcons(const QIcon &warning, const QIcon &error)
{
    m_lintIcons[0] = warning;
    m_lintIcons[1] = error;
    repaintLintColumn();
}

void DirectoryTableModel::repaintLintColumn()
{
    if (!m_visible.empty())
        emit dataChanged(index(0, LintColumn), index(rowCount() - 1, LintColumn),
                         {Qt::DecorationRole, Qt::ToolTipRole, LintRole});
}

bool DirectoryTableModel::lintShapesLayout() const
{
    return m_sortColumn == LintColumn || m_filter.nonCompliantOnly;
}

void DirectoryTableModel::setLintLevels(const QHash<QString, Lint> &levels, Lint others)
{
    auto change = [&] {
        for (int i = 0; i < m_table.size(); ++i)
            m_table.setLint(i, others);
        for (auto it = levels.cbegin(); it != levels.cend(); ++it) {
            const int i = indexOfKey(it.key());
            if (i >= 0)
                m_table.setLint(i, it.value());
        }
    };
    if (!lintShapesLayout()) {
        change();
        repaintLintColumn();
        return;
    }
    relayout([&] {
        change();
        rebuildOrder();
    });
}

void DirectoryTableModel::setLintLevel(const QString &key, Lint level)
{
    const int i = indexOfKey(key);
    if (i < 0 || m_table.lint(i) == level)
        return;
    if (!lintShapesLayout()) {
        m_table.setLint(i, level);
        const int row = rowOfKey(key);
        if (row >= 0)
            emit dataChanged(index(row, LintColumn), index(row, LintColumn));
        return;
    }
    relayout([&] {
        m_order.erase(std::find(m_order.begin(), m_order.end(), i));
        m_table.setLint(i, level);
        insertSorted(m_order, i, [this](int a, int b) { return lessThan(a, b); });
    });
}

DirectoryTableModel::Lint DirectoryTableModel::lintLevel(const QString &key) const
{
    const int i = indexOfKey(key);
    return i < 0 ? Lint::Unknown : m_table.lint(i);
}

std::optional<RowSummary> DirectoryTableModel::summary(const QString &key) const
{
    const int i = indexOfKey(key);
    if (i < 0)
        return std::nullopt;
    return RowSummary{m_table.key(i),       m_table.typeName(i), m_table.category(i), m_table.target(i),
                      m_table.updatedAt(i), m_table.enabled(i),  m_table.sensitive(i)};
}

int DirectoryTableModel::indexOfKey(const QString &key) const
{
    const QByteArray utf8 = key.toUtf8();
    const std::string_view needle(utf8.constData(), std::size_t(utf8.size()));
    const auto it =
        std::lower_bound(m_byKey.begin(), m_byKey.end(), needle,
                         [this](int index, std::string_view k) { return m_table.keyBytes(index) < k; });
    if (it == m_byKey.end() || m_table.keyBytes(*it) != needle)
        return -1;
    return *it;
}

bool DirectoryTableModel::lessThan(int a, int b) const
{
    int c = 0;
    switch (m_sortColumn) {
    case TypeColumn:
        c = int(m_table.type(a)) - int(m_table.type(b));
        break;
    case CategoryColumn:
        c = compareBytes(m_table.categoryBytes(a), m_table.categoryBytes(b));
        break;
    case TargetColumn:
        c = compareBytes(m_table.targetBytes(a), m_table.targetBytes(b));
        break;
    case EnabledColumn:
        c = int(m_table.enabled(a)) - int(m_table.enabled(b));
        break;
    case UpdatedColumn:
        c = compareBytes(m_table.updatedAtBytes(a), m_table.updatedAtBytes(b));
        break;
    case LintColumn:
        c = int(m_table.lint(a)) - int(m_table.lint(b));
        break;
    default:
        break;
    }
    // Ties fall back to the key, so the order is total and stable across re-sorts.
    if (c == 0)
        c = compareBytes(m_table.keyBytes(a), m_table.keyBytes(b));
    return m_sortOrder == Qt::AscendingOrder ? c < 0 : c > 0;
}

void DirectoryTableModel::rebuildOrder()
{
    if (m_sortColumn == KeyColumn) {
        m_order = m_byKey;
        if (m_sortOrder == Qt::DescendingOrder)
            std::reverse(m_order.begin(), m_order.end());
        return;
    }
    // Keys are unique and break every tie, so the order is total and needs no stable sort.
    m_order = m_byKey;
    std::sort(m_order.begin(), m_order.end(), [this](int a, int b) { return lessThan(a, b); });
}

void DirectoryTableModel::refilter()
{
    m_visible.clear();
    const bool anyType = m_filter.type.isEmpty();
    const bool anyCategory = m_filter.anyCategory && m_filter.category.isEmpty();
    const bool anyLint = !m_filter.nonCompliantOnly;
    if (anyType && anyCategory && anyLint && m_filter.text.isEmpty()) {
        m_visible = m_order;
        return;
    }
    const SummaryTable::Type type = SummaryTable::typeFromName(m_filter.type);
    const QByteArray categoryUtf8 = m_filter.category.toUtf8();
    const std::string_view category(categoryUtf8.constData(), std::size_t(categoryUtf8.size()));
    const std::vector<char> textHits = m_table.rowsContaining(m_foldedText);
    m_visible.reserve(m_order.size());
    for (int index : m_order) {
        if ((anyType || m_table.type(index) == type)
            && (anyCategory || m_table.categoryBytes(index) == category)
            && (anyLint || m_table.lint(index) == Lint::Error)
            && (textHits[std::size_t(index)] || m_contentHit[std::size_t(index)]))
            m_visible.push_back(index);
    }
}

void DirectoryTableModel::setFilter(const DirectoryFilter &filter)
{
    if (filter == m_filter)
        return;
    relayout([&] {
        if (filter.text != m_filter.text) {
            m_contentMatches.clear();
            std::fill(m_contentHit.begin(), m_contentHit.end(), 0);
        }
        m_filter = filter;
        m_foldedText = SummaryTable::foldAscii(m_filter.text);
    });
}

void DirectoryTableModel::markContentHits()
{
    m_contentHit.assign(std::size_t(m_table.size()), 0);
    for (const QString &key : std::as_const(m_contentMatches)) {
        const int index = indexOfKey(key);
        if (index >= 0)
            m_contentHit[std::size_t(index)] = 1;
    }
}

void DirectoryTableModel::setContentMatches(const QString &forText, const QStringList &keys)
{
    if (forText != m_filter.text)
        return;
    if (keys == m_contentMatches)
        return;
    relayout([&] {
        m_contentMatches = keys;
        markContentHits();
    });
}

QString DirectoryTableModel::keyAt(int row) const
{
    if (row < 0 || row >= rowCount())
        return {};
    return m_table.key(m_visible[std::size_t(row)]);
}

int DirectoryTableModel::rowOfKey(const QString &key) const
{
    const int index = indexOfKey(key);
    if (index < 0)
        return -1;
    const auto it = std::find(m_visible.begin(), m_visible.end(), index);
    return it == m_visible.end() ? -1 : int(it - m_visible.begin());
}

void DirectoryTableModel::upsert(const RowSummary &summary, bool modified)
{
    apply({{summary, modified, false}});
}

void DirectoryTableModel::remove(const QString &key)
{
    Update update;
    update.summary.key = key;
    update.remove = true;
    apply({update});
}

void DirectoryTableModel::apply(const QList<Update> &updates)
{
    if (updates.isEmpty())
        return;
    bool categoriesMoved = updates.size() > 1;
    relayout([&] {
        if (updates.size() == 1)
            applyOne(updates.first(), &categoriesMoved);
        else
            applyMany(updates);
    });
    // Recounting categories costs a pass over every row; typing in a field changes none.
    if (categoriesMoved)
        emit categoriesChanged();
}

// One row: the indexes move by insertion and erase, no re-sort.
void DirectoryTableModel::applyOne(const Update &update, bool *categoriesMoved)
{
    const int index = indexOfKey(update.summary.key);
    auto byOrder = [this](int a, int b) { return lessThan(a, b); };
    if (update.remove) {
        if (index < 0)
            return;
        *categoriesMoved = true;
        m_table.removeAt(index);
        m_contentHit.erase(m_contentHit.begin() + index);
        for (std::vector<int> *list : {&m_byKey, &m_order}) {
            list->erase(std::find(list->begin(), list->end(), index));
            for (int &i : *list) {
                if (i > index)
                    --i;
            }
        }
        return;
    }
    if (index >= 0) {
        const QByteArray category = update.summary.category.toUtf8();
        *categoriesMoved = m_table.categoryBytes(index)
                           != std::string_view(category.constData(), std::size_t(category.size()));
        m_order.erase(std::find(m_order.begin(), m_order.end(), index));
        m_table.assign(index, update.summary);
        m_table.setModified(index, update.modified);
        insertSorted(m_order, index, byOrder);
        return;
    }
    *categoriesMoved = true;
    const int added = m_table.append(update.summary);
    m_table.setModified(added, update.modified);
    m_contentHit.push_back(0);
    insertSorted(m_byKey, added, [this](int a, int b) { return m_table.keyBytes(a) < m_table.keyBytes(b); });
    insertSorted(m_order, added, byOrder);
}

// Many rows (bulk enable, delete of a selection, undo of either): change the table in
// place, then rebuild both orders once.
void DirectoryTableModel::applyMany(const QList<Update> &updates)
{
    std::vector<char> removed(std::size_t(m_table.size()), 0);
    bool anyRemoved = false;
    QHash<QString, int> added; // keys appended by this batch, not yet in m_byKey
    for (const Update &update : updates) {
        int index = indexOfKey(update.summary.key);
        if (index < 0)
            index = added.value(update.summary.key, -1);
        if (update.remove) {
            if (index >= 0) {
                removed[std::size_t(index)] = 1;
                anyRemoved = true;
            }
        } else if (index >= 0) {
            m_table.assign(index, update.summary);
            m_table.setModified(index, update.modified);
            removed[std::size_t(index)] = 0;
        } else {
            const int appended = m_table.append(update.summary);
            m_table.setModified(appended, update.modified);
            m_contentHit.push_back(0);
            removed.push_back(0);
            added.insert(update.summary.key, appended);
        }
    }
    if (!added.isEmpty())
        m_byKey = m_table.keyOrder();
    if (anyRemoved) {
        const std::vector<int> remap = m_table.removeFlagged(removed);
        std::vector<int> byKey;
        byKey.reserve(m_byKey.size());
        for (int index : m_byKey) {
            if (remap[std::size_t(index)] >= 0)
                byKey.push_back(remap[std::size_t(index)]);
        }
        m_byKey = std::move(byKey);
        std::vector<char> hits(std::size_t(m_table.size()), 0);
        for (std::size_t old = 0; old < remap.size(); ++old) {
            if (remap[old] >= 0)
                hits[std::size_t(remap[old])] = m_contentHit[old];
        }
        m_contentHit = std::move(hits);
    }
    rebuildOrder();
}

void DirectoryTableModel::setModified(const QString &key, bool modified)
{
    const int index = indexOfKey(key);
    if (index < 0 || m_table.modified(index) == modified)
        return;
    m_table.setModified(index, modified);
    const int row = rowOfKey(key);
    if (row >= 0)
        emit dataChanged(this->index(row, 0), this->index(row, ColumnCount - 1));
}

int DirectoryTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_visible.size());
}

int DirectoryTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DirectoryTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int i = m_visible[std::size_t(index.row())];
    if (index.column() == LintColumn && role != KeyRole && role != ModifiedRole && role != TypeNameRole)
        return lintData(i, role);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == UpdatedColumn)
            return ShortTime::of(m_table.updatedAt(i));
        [[fallthrough]];
    case Qt::ToolTipRole:
        switch (index.column()) {
        case KeyColumn:
            return m_table.key(i);
        case TypeColumn:
            return m_table.typeName(i);
        case CategoryColumn:
            return m_table.category(i);
        case TargetColumn:
            return m_table.target(i);
        case EnabledColumn:
            return m_table.enabled(i) ? tr("yes") : tr("no");
        case UpdatedColumn:
            return m_table.updatedAt(i);
        }
        break;
    case Qt::DecorationRole:
        if (index.column() == TypeColumn)
            return m_typeIcons.value(m_table.typeName(i));
        break;
    case Qt::FontRole:
        if (m_table.modified(i) || !m_table.enabled(i)) {
            QFont font;
            font.setItalic(m_table.modified(i));
            font.setStrikeOut(!m_table.enabled(i) && index.column() == KeyColumn);
            return font;
        }
        break;
    case KeyRole:
        return m_table.key(i);
    case TypeNameRole:
        return m_table.typeName(i);
    case ModifiedRole:
        return m_table.modified(i);
    case SortRole:
        switch (index.column()) {
        case TypeColumn:
            return int(m_table.type(i));
        case EnabledColumn:
            return m_table.enabled(i);
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    return {};
}

QVariant DirectoryTableModel::lintData(int i, int role) const
{
    const Lint level = m_table.lint(i);
    switch (role) {
    case Qt::DecorationRole:
        if (level == Lint::Warning || level == Lint::Error)
            return m_lintIcons[level == Lint::Error ? 1 : 0];
        break;
    case Qt::ToolTipRole:
        switch (level) {
        case Lint::Unknown:
            return tr("Not linted yet");
        case Lint::Clean:
            return tr("Compliant");
        case Lint::Warning:
            return tr("Compliant, with warnings");
        case Lint::Error:
            return tr("Not compliant: a save of this row as new would be refused");
        }
        break;
    case SortRole:
    case LintRole:
        return int(level);
    }
    return {};
}

QVariant DirectoryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && section == LintColumn && role == Qt::ToolTipRole)
        return tr("Hygiene: warning or error findings (SPEC §8)");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case TypeColumn:
        return tr("Type");
    case CategoryColumn:
        return tr("Category");
    case TargetColumn:
        return tr("Target");
    case EnabledColumn:
        return tr("Enabled");
    case UpdatedColumn:
        return tr("Updated");
    case LintColumn:
        return tr("Lint");
    }
    return {};
}

void DirectoryTableModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount)
        return;
    relayout([&] {
        m_sortColumn = column;
        m_sortOrder = order;
        rebuildOrder();
    });
}

void DirectoryTableModel::relayout(const std::function<void()> &change)
{
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // Persistent indexes (selection, current row) are remembered by key, so they follow
    // their rows through re-sorting, filtering and edits, and vanish with removed rows.
    const QModelIndexList before = persistentIndexList();
    QStringList keys;
    keys.reserve(before.size());
    for (const QModelIndex &index : before)
        keys.append(index.isValid() ? m_table.key(m_visible[std::size_t(index.row())]) : QString());

    change();
    refilter();

    std::vector<int> rowOf(std::size_t(m_table.size()), -1);
    for (std::size_t r = 0; r < m_visible.size(); ++r)
        rowOf[std::size_t(m_visible[r])] = int(r);
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype p = 0; p < before.size(); ++p) {
        const int i = indexOfKey(keys[p]);
        const int row = i < 0 ? -1 : rowOf[std::size_t(i)];
        after.append(row < 0 ? QModelIndex() : index(row, before[p].column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    emit countsChanged(rowCount(), totalRows());
}
